/**
 * The tina run that escalates: `search-index`, phase 1 of 2. Its worker is stuck on a failing
 * task, and after `blockAfterSec` its lead marks the phase blocked (`PHASE BLOCKED: ...`).
 */
import path from 'node:path';
import { isoSeconds, minutesAgo, writeJsonAtomic } from '../files.js';
import type { DemoRun, SandboxLayout, TaskSeed } from '../plan.js';
import { membersIn, MODELS, tasksDirOf, teamFileOf, writeTasks } from './claude-teams.js';
import { phaseSession, supervisorHeader, tinaStateDir, writeSessionRegistry } from './tina-files.js';

const FEATURE = 'search-index';

const TASKS: TaskSeed[] = [
  {
    id: '1',
    subject: 'Define index schema',
    description: 'Fields, analyzers and boosts for products',
    status: 'completed',
    owner: 'worker-1',
    blockedBy: [],
  },
  {
    id: '2',
    subject: 'Tokenizer for product titles',
    description: 'Split SKUs and model numbers sensibly',
    status: 'completed',
    owner: 'worker-1',
    blockedBy: ['1'],
  },
  {
    id: '3',
    subject: 'Ranking function with field boosts',
    description: 'Title over brand over description',
    activeForm: 'Tuning ranking',
    status: 'in_progress',
    owner: 'worker-1',
    blockedBy: ['1'],
  },
  {
    id: '4',
    subject: 'Incremental reindex job',
    description: 'Reindex products changed since the last run',
    status: 'pending',
    owner: null,
    blockedBy: ['1'],
  },
  {
    id: '5',
    subject: 'Search API endpoint',
    description: 'GET /search with paging and facets',
    status: 'pending',
    owner: null,
    blockedBy: ['3'],
  },
];

/** The search-index run's files: the supervisor's state, phase 1's status, the context and the tasks. */
function writeSearchIndexState(l: SandboxLayout, project: string, state: string, team: string): void {
  const ago = (m: number) => minutesAgo(l.now, m);
  writeJsonAtomic(path.join(state, 'supervisor-state.json'), {
    ...supervisorHeader(FEATURE, project),
    total_phases: 2,
    current_phase: 1,
    status: 'executing',
    orchestration_started_at: ago(48),
    phases: {
      '1': {
        plan_path: 'docs/plans/search-index-phase-1.md',
        status: 'executing',
        planning_started_at: ago(48),
        execution_started_at: ago(40),
        breakdown: { planning_mins: 8 },
        review_verdicts: {
          '1': { spec_review: 'passed', quality_review: 'passed', worker: 'worker-1' },
          '2': { spec_review: 'passed', quality_review: 'passed', worker: 'worker-1' },
        },
      },
    },
    timing: { total_elapsed_mins: 48, active_mins: 48, idle_mins: 0, gaps: [] },
  });
  writeJsonAtomic(path.join(state, 'phase-1', 'status.json'), {
    status: 'executing',
    started_at: ago(40),
    heartbeat_at: isoSeconds(l.now),
  });
  writeJsonAtomic(path.join(state, 'context-metrics.json'), {
    used_pct: 38,
    tokens: 76_000,
    max: 200_000,
    timestamp: isoSeconds(l.now),
  });
  writeSessionRegistry(l.claudeDir, FEATURE, project, l.now - 48 * 60_000);
  writeTasks(l.claudeDir, team, TASKS);
}

/** The search-index run; the phase blocks `blockAfterSec` seconds (demo time) after the agents start. */
export function searchIndex(l: SandboxLayout, blockAfterSec: number): DemoRun {
  const project = path.join(l.projectsDir, FEATURE);
  const state = tinaStateDir(project);
  const team = `${FEATURE}-phase-1`;
  const session = phaseSession(FEATURE, 1);
  const tasks = tasksDirOf(l.claudeDir, team);
  const agent = { sandbox: l.dir, speed: l.speed };

  const write = () => writeSearchIndexState(l, project, state, team);

  const member = membersIn(project, session);

  return {
    summary:
      `tina search-index: phase 1 of 2; a worker is stuck and the phase escalates (blocked) ` +
      `after ~${blockAfterSec} s`,
    root: project,
    write,
    sessions: [
      {
        name: session,
        panes: [
          {
            member: 'team-lead',
            role: 'lead',
            cwd: project,
            flags: {
              ...agent,
              name: 'team-lead',
              state,
              phase: 1,
              tasks,
              team: teamFileOf(l.claudeDir, team),
              after: blockAfterSec,
              title: 'tina team-lead · search-index · phase 1 of 2',
            },
          },
          { member: 'worker-1', role: 'worker', cwd: project, flags: { ...agent, name: 'worker-1', tasks, task: '3' } },
        ],
      },
    ],
    teams: [
      {
        name: team,
        description: `Phase 1 execution team for ${FEATURE}`,
        createdAt: l.now - 40 * 60_000,
        leadSessionId: 'demo-session-search-phase-1',
        members: [member('team-lead', 'team-lead', MODELS.opus), member('worker-1', 'tina:implementer', MODELS.sonnet)],
      },
    ],
  };
}
