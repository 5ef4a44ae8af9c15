/** Snapshots for the UI tests: one run of every system, with gates, teams, tasks and reviews. */
import type { Gate, Member, Run, Snapshot, Task } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
/** The fixed "now" of the fixtures. */
export const NOW = T0;
const ago = (min: number) => new Date(T0 - min * 60_000).toISOString();

export function member(name: string, patch: Partial<Member> = {}): Member {
  return { name, role: 'tina:implementer', model: 'sonnet', paneId: null, state: 'unknown', lead: false, ...patch };
}

export function task(id: string, patch: Partial<Task> = {}): Task {
  return { id, subject: `Task ${id}`, status: 'pending', owner: null, blockedBy: [], ...patch };
}

export function gate(id: string, patch: Partial<Gate> = {}): Gate {
  return {
    id,
    kind: 'checkpoint',
    state: 'pending',
    since: ago(12),
    grantable: true,
    title: `Checkpoint ${id}`,
    file: `/p/.harness/checkpoint-${id}.md`,
    ...patch,
  };
}

/** A tina run: live lead, two workers, a context gate, tasks and reviews. */
export function tinaRun(): Run {
  return {
    ...emptyRun('tina', 'auth-feature', '/work/auth', '/work/auth/.claude/tina'),
    status: 'running',
    phase: { current: '2', total: 5, status: 'executing' },
    members: [
      member('team-lead', { role: 'team-lead', model: 'opus', paneId: '%3', state: 'alive', lead: true }),
      member('worker-1', { paneId: '%4', state: 'alive' }),
      member('worker-2', { paneId: '%5', state: 'dead' }),
      member('reviewer', { role: 'tina:spec-reviewer', paneId: 'in-process', state: 'in-process' }),
    ],
    tasks: [
      task('1', { subject: 'Add login form', status: 'completed', owner: 'worker-1' }),
      task('2', { subject: 'Session tokens', status: 'in_progress', owner: 'worker-2' }),
      task('3', { subject: 'Logout', status: 'pending', blockedBy: ['2'] }),
    ],
    reviews: [
      { taskId: '1', kind: 'spec-review', verdict: 'passed', reviewer: 'reviewer' },
      { taskId: '1', kind: 'code-quality', verdict: 'failed', reviewer: 'reviewer' },
      { taskId: '2', kind: 'spec-review', verdict: 'pending', reviewer: null },
    ],
    gates: [
      gate('context', {
        kind: 'context',
        grantable: false,
        title: 'checkpoint needed (context 78%)',
        since: ago(3),
        file: null,
      }),
    ],
    context: { usedPct: 78, threshold: 70 },
    warnings: ['context 78% is over the threshold 70%'],
  };
}

/** A harness run waiting at a grantable checkpoint. */
export function harnessRun(): Run {
  return {
    ...emptyRun('harness', 'payments', '/work/payments', '/work/payments/.harness'),
    status: 'waiting',
    gates: [
      gate('plan-approval', {
        body: '# Checkpoint: plan-approval (auto, triggerOn=post-planner)\nRequested at: 2026-03-01T11:48:00Z\n## How to grant\nCreate the .granted file.',
      }),
    ],
  };
}

/** A blocked tina-like run with an escalation. */
export function blockedRun(): Run {
  return {
    ...emptyRun('sage', 'epic-42', '/work/sage', '/work/sage/.sage/state'),
    status: 'blocked',
    gates: [gate('hitl', { kind: 'escalation', grantable: false, title: 'blocked: tests fail on CI' })],
    problems: [{ file: '/work/sage/.sage/state/checkpoint.json', message: 'invalid JSON at line 3' }],
  };
}

/** A dotagent run awaiting approval, and a plain Claude team. */
export function quietRuns(): Run[] {
  return [
    {
      ...emptyRun('dotagent', 'wf-7', '/work/dot', '/work/dot/memory/state'),
      status: 'waiting',
      phase: { current: 'ARCHITECTURE', total: 5, status: 'complete' },
      gates: [gate('ARCHITECTURE', { kind: 'approval' })],
    },
    {
      ...emptyRun('claude-team', 'side-quest', null, null),
      status: 'idle',
      members: [member('lead', { lead: true, paneId: '%9', state: 'dead' })],
    },
  ];
}

/** The full fixture snapshot, ordered as the store orders it (what needs a human first). */
export function fixtureSnapshot(runs: Run[] = [blockedRun(), harnessRun(), tinaRun(), ...quietRuns()]): Snapshot {
  return { version: 1, generatedAt: new Date(T0).toISOString(), runs, problems: [] };
}
