/**
 * The harness (Papercup) project `sheets-clone`: named checkpoints in `.papercusp/config.json`,
 * `plan-approval` already fired and granted, and a runner that fires `pre-done` after `fireAfterSec`.
 */
import path from 'node:path';
import { isoSeconds, writeJsonAtomic, writeTextAtomic } from '../files.js';
import type { DemoRun, SandboxLayout } from '../plan.js';

/** The body run.sh writes when `post-planner` fires plan-approval. */
function planApprovalBody(stateDir: string, at: string): string {
  return (
    '# Checkpoint: plan-approval (auto, triggerOn=post-planner)\n\n' +
    `Requested at: ${at}\n` +
    'Trigger: scoper + reviewer both passed for the first time.\n\n' +
    'Review the plan via the harness UI (Plans tab → Inbox).\n\n' +
    '## How to grant\n' +
    '- UI: /api/harness/<slug>/checkpoint/plan-approval/grant\n' +
    `- CLI: touch ${path.join(stateDir, 'checkpoint-plan-approval.md')}.granted && re-run the harness\n`
  );
}

/** The sheets-clone harness run. */
export function harnessProject(l: SandboxLayout, fireAfterSec: number): DemoRun {
  const project = path.join(l.projectsDir, 'sheets-clone');
  const state = path.join(project, '.papercusp');
  const at = (minutes: number) => isoSeconds(l.now - minutes * 60_000);

  const write = () => {
    writeJsonAtomic(path.join(state, 'config.json'), {
      models: { orchestrator: 'haiku', worker: 'sonnet', validator: 'opus' },
      planReviewer: { enabled: true },
      maxCostUsd: 10,
      checkpoints: {
        enabled: true,
        types: [
          { name: 'plan-approval', description: 'Human approves the plan before any worker runs', triggerOn: 'post-planner' },
          { name: 'pre-done', description: 'Human reviews before DONE is emitted', triggerOn: 'pre-done' },
          { name: 'db-migration', description: 'First feature that modifies the DB schema', triggerDoc: 'Fire before the first feature with a DB-modifying claim', triggerOn: 'feature-claim:db' },
        ],
      },
    });
    writeTextAtomic(path.join(state, 'checkpoint-plan-approval.md'), planApprovalBody(state, at(52)));
    writeTextAtomic(path.join(state, 'checkpoint-plan-approval.md.granted'), `granted at ${new Date(l.now - 47 * 60_000).toISOString()}\n`);
    writeTextAtomic(path.join(state, '.checkpoint-plan-approval.fired'), '');
    writeTextAtomic(
      path.join(state, 'logs', 'run.log'),
      [
        `[${at(58)}] ORCH decision: CONTINUE scoper produced 8 features`,
        `[${at(52)}] ORCH decision: CHECKPOINT plan-approval`,
        `[${at(46)}] ORCH decision: CONTINUE plan-approval granted; dispatching workers`,
        `[${at(30)}] ORCH decision: CONTINUE F-1..F-5 validated`,
        `[${at(3)}] ORCH decision: CONTINUE F-6 formula bar in progress`,
        '',
      ].join('\n'),
    );
  };

  return {
    summary: `harness sheets-clone: plan-approval granted; the runner fires the pre-done checkpoint after ~${fireAfterSec} s`,
    root: project,
    write,
    sessions: [
      {
        name: 'papercusp-sheets-clone',
        panes: [{ member: 'run.sh', role: 'harness', cwd: project, flags: { sandbox: l.dir, speed: l.speed, name: 'run.sh', state, after: fireAfterSec, title: 'papercusp run.sh · sheets-clone' } }],
      },
    ],
    teams: [],
  };
}
