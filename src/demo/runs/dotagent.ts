/**
 * The dotagent project `auth-service`: ARCHITECTURE complete but not approved (no
 * `user_checkpoints` entry), with every report the state refers to present. As the checkpoint
 * skill writes it on completion (Clouder0/dotagent skills/clouder0/checkpoint/SKILL.md "On
 * Completion"), `current_phase` has already moved on to IMPLEMENTATION, which has not run yet.
 */
import path from 'node:path';
import { isoSeconds, writeJsonAtomic } from '../files.js';
import type { DemoRun, SandboxLayout } from '../plan.js';

/** The auth-service dotagent run. */
export function dotagentProject(l: SandboxLayout): DemoRun {
  const project = path.join(l.projectsDir, 'auth-service');
  const state = path.join(project, 'memory', 'state');
  const reports = path.join(project, 'memory', 'reports');
  const at = (minutes: number) => isoSeconds(l.now - minutes * 60_000);
  const day = new Date(l.now).toISOString().slice(0, 10).replace(/-/g, '');

  const write = () => {
    writeJsonAtomic(path.join(reports, 'demand.json'), {
      feature: 'passwordless login',
      requirements: ['magic-link sign in', 'links expire after 15 minutes', 'rate limit per email'],
      non_goals: ['SMS codes'],
    });
    writeJsonAtomic(path.join(reports, 'final_design.json'), {
      components: ['token service', 'mailer adapter', 'session issuer'],
      decisions: [{ topic: 'token storage', choice: 'hashed tokens in the users database, single use' }],
      risks: ['email deliverability delays'],
    });
    writeJsonAtomic(path.join(state, 'phase.json'), {
      workflow_id: `wf-${day}-auth`,
      started_at: at(75),
      last_updated: at(4),
      current_phase: 'IMPLEMENTATION',
      phase_status: 'complete',
      completed_phases: [
        { phase: 'REQUIREMENTS', completed_at: at(55), output: 'memory/reports/demand.json' },
        { phase: 'ARCHITECTURE', completed_at: at(4), output: 'memory/reports/final_design.json' },
      ],
      user_checkpoints: [{ phase: 'REQUIREMENTS', approved_at: at(53) }],
      interruption_safe: true,
    });
    writeJsonAtomic(path.join(state, 'execution.json'), {
      tasks: [
        {
          id: 'task-001',
          status: 'complete',
          attempts: 1,
          started_at: at(52),
          completed_at: at(30),
          output: 'memory/reports/demand.json',
        },
        {
          id: 'task-002',
          status: 'complete',
          attempts: 2,
          started_at: at(30),
          completed_at: at(4),
          output: 'memory/reports/final_design.json',
        },
      ],
    });
  };

  return {
    summary: 'dotagent auth-service: ARCHITECTURE complete, awaiting approval',
    root: project,
    write,
    sessions: [
      {
        name: 'dotagent-auth-service',
        panes: [
          {
            member: 'dotagent',
            role: 'dotagent',
            cwd: project,
            flags: {
              sandbox: l.dir,
              speed: l.speed,
              name: 'dotagent',
              state,
              title: 'dotagent · auth-service · passwordless login',
            },
          },
        ],
      },
    ],
    teams: [],
  };
}
