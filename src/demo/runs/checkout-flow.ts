/**
 * The main tina run: `checkout-flow`, phase 2 of 3 executing with a team of five in
 * `tina-checkout-flow-phase-2`. Its lead's context climbs to the checkpoint signal; its workers
 * move tasks; its reviewers give verdicts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderHandoff } from '../agents/handoff.js';
import { isoSeconds, minutesAgo, writeJsonAtomic, writeTextAtomic } from '../files.js';
import type { DemoRun, SandboxLayout, TaskSeed } from '../plan.js';
import { membersIn, MODELS, tasksDirOf, teamFileOf, writeTasks } from './claude-teams.js';
import { gitRange, orchestrationSession, phaseSession, supervisorHeader, tinaStateDir } from './tina-files.js';

const FEATURE = 'checkout-flow';

const PHASE_2_TASKS: TaskSeed[] = [
  {
    id: '1',
    subject: 'Add cart summary endpoint',
    description: 'GET /cart/summary with totals, tax and shipping estimate',
    status: 'completed',
    owner: 'worker-1',
    blockedBy: [],
  },
  {
    id: '2',
    subject: 'Validate shipping address form',
    description: 'Client and server validation of the address form',
    status: 'completed',
    owner: 'worker-2',
    blockedBy: [],
  },
  {
    id: '3',
    subject: 'Wire payment provider client',
    description: 'Typed client for the payment provider with idempotency keys',
    status: 'completed',
    owner: 'worker-1',
    blockedBy: [],
  },
  {
    id: '4',
    subject: 'Apply discount codes at checkout',
    description: 'Validate and apply discount codes to the cart total',
    activeForm: 'Applying discount codes',
    status: 'in_progress',
    owner: 'worker-2',
    blockedBy: ['1'],
  },
  {
    id: '5',
    subject: 'Persist order drafts',
    description: 'Save the order draft before payment so a reload keeps it',
    activeForm: 'Persisting order drafts',
    status: 'in_progress',
    owner: 'worker-1',
    blockedBy: ['1'],
  },
  {
    id: '6',
    subject: 'Send order confirmation email',
    description: 'Email the receipt once payment succeeds',
    status: 'pending',
    owner: null,
    blockedBy: ['3', '5'],
  },
  {
    id: '7',
    subject: 'Retry failed card payments',
    description: 'Retry soft declines with backoff, surface hard declines',
    status: 'pending',
    owner: null,
    blockedBy: ['3'],
  },
  {
    id: '8',
    subject: 'Emit checkout analytics events',
    description: 'Funnel events for each checkout step',
    status: 'pending',
    owner: null,
    blockedBy: ['4'],
  },
  {
    id: '9',
    subject: 'End-to-end checkout tests',
    description: 'Playwright tests of the happy path and declines',
    status: 'pending',
    owner: null,
    blockedBy: ['4', '5', '6', '7'],
  },
];

/** Phase 1's task list at the checkpoint taken during that phase. */
const PHASE_1_AT_CHECKPOINT = [
  { id: '1', subject: 'Define cart domain types', status: 'completed', owner: 'worker-1', blockedBy: [] },
  { id: '2', subject: 'Cart persistence layer', status: 'completed', owner: 'worker-2', blockedBy: ['1'] },
  { id: '3', subject: 'Price calculation service', status: 'in_progress', owner: 'worker-1', blockedBy: ['1'] },
  { id: '4', subject: 'Cart API routes', status: 'pending', owner: null, blockedBy: ['2', '3'] },
];

const PASSED = { spec_review: 'passed', quality_review: 'passed' };

/** The supervisor's state: phase 1 complete and reviewed, phase 2 executing with one review pending. */
function supervisorState(project: string, ago: (m: number) => string) {
  return {
    ...supervisorHeader(FEATURE, project),
    total_phases: 3,
    current_phase: 2,
    status: 'executing',
    orchestration_started_at: ago(95),
    phases: {
      '1': {
        plan_path: 'docs/plans/checkout-flow-phase-1.md',
        status: 'complete',
        planning_started_at: ago(95),
        execution_started_at: ago(88),
        review_started_at: ago(50),
        completed_at: ago(43),
        duration_mins: 52,
        git_range: gitRange('checkout-flow-1'),
        breakdown: { planning_mins: 7, execution_mins: 38, review_mins: 7 },
        review_verdicts: Object.fromEntries(
          ['1', '2', '3', '4'].map((id, i) => [id, { ...PASSED, worker: i % 2 ? 'worker-2' : 'worker-1' }]),
        ),
      },
      '2': {
        plan_path: 'docs/plans/checkout-flow-phase-2.md',
        status: 'executing',
        planning_started_at: ago(41),
        execution_started_at: ago(34),
        breakdown: { planning_mins: 7 },
        review_verdicts: {
          '1': { ...PASSED, worker: 'worker-1' },
          '2': { spec_review: 'passed', quality_review: 'pending', worker: 'worker-2' },
        },
      },
    },
    timing: {
      total_elapsed_mins: 95,
      active_mins: 93,
      idle_mins: 2,
      gaps: [{ after: 'phase-1', before: 'phase-2', duration_mins: 2, timestamp: ago(41) }],
    },
    model_policy: { validator: 'opus', planner: 'opus', executor: 'sonnet', reviewer: 'opus' },
    review_policy: { hard_block_detectors: true, enforcement: 'task_and_phase' },
  };
}

/** Writes the run's state files: the supervisor's, each phase's status, phase 1's handoff, the metrics, the tasks. */
function writeState(l: SandboxLayout, project: string, state: string, phaseTeam: string): void {
  const ago = (m: number) => minutesAgo(l.now, m);
  writeJsonAtomic(path.join(state, 'supervisor-state.json'), supervisorState(project, ago));
  writeJsonAtomic(path.join(state, 'phase-1', 'status.json'), {
    status: 'complete',
    started_at: ago(88),
    completed_at: ago(43),
    git_range: gitRange('checkout-flow-1'),
  });
  const handoff1 = path.join(state, 'phase-1', 'handoff.md');
  writeTextAtomic(
    handoff1,
    renderHandoff({
      phase: '1',
      at: ago(70),
      reason: 'Context threshold exceeded',
      teammates: [
        { name: 'worker-1', agentType: 'tina:implementer' },
        { name: 'worker-2', agentType: 'tina:implementer' },
        { name: 'spec-reviewer', agentType: 'tina:spec-reviewer' },
        { name: 'code-quality-reviewer', agentType: 'tina:code-quality-reviewer' },
      ],
      tasks: PHASE_1_AT_CHECKPOINT.map((t) => ({ ...t, file: '', raw: {} })),
      verdicts: { '1': PASSED, '2': { spec_review: 'passed', quality_review: 'pending' } },
      contextPct: 71,
    }),
  );
  fs.utimesSync(handoff1, new Date(l.now - 70 * 60_000), new Date(l.now - 70 * 60_000));
  writeJsonAtomic(path.join(state, 'phase-2', 'status.json'), {
    status: 'executing',
    started_at: ago(34),
    heartbeat_at: isoSeconds(l.now),
  });
  writeJsonAtomic(path.join(state, 'context-metrics.json'), {
    used_pct: 55,
    tokens: 110_000,
    max: 200_000,
    timestamp: isoSeconds(l.now),
  });
  // No tina-sessions entry: tina stopped writing that registry (2026-02-08); the run is found from
  // its teams' and panes' working directories.
  writeTasks(l.claudeDir, phaseTeam, PHASE_2_TASKS);
}

/** The orchestrator's session and phase 2's: the lead that climbs toward the checkpoint, its workers and reviewers. */
function sessionsOf(l: SandboxLayout, project: string, orch: string, session: string): DemoRun['sessions'] {
  const state = tinaStateDir(project);
  const phaseTeam = `${FEATURE}-phase-2`;
  const tasks = tasksDirOf(l.claudeDir, phaseTeam);
  const agent = { sandbox: l.dir, speed: l.speed };
  return [
    {
      name: orch,
      panes: [
        {
          member: 'team-lead',
          role: 'orchestrator',
          cwd: project,
          flags: { ...agent, name: 'team-lead', state, tasks, title: 'tina orchestrator · checkout-flow' },
        },
      ],
    },
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
            phase: 2,
            tasks,
            team: teamFileOf(l.claudeDir, phaseTeam),
            climb: true,
            title: 'tina team-lead · checkout-flow · phase 2 of 3',
          },
        },
        { member: 'worker-1', role: 'worker', cwd: project, flags: { ...agent, name: 'worker-1', tasks } },
        { member: 'worker-2', role: 'worker', cwd: project, flags: { ...agent, name: 'worker-2', tasks } },
        {
          member: 'spec-reviewer',
          role: 'reviewer',
          cwd: project,
          flags: { ...agent, name: 'spec-reviewer', state, phase: 2, tasks, kind: 'spec' },
        },
        {
          member: 'code-quality-reviewer',
          role: 'reviewer',
          cwd: project,
          flags: { ...agent, name: 'code-quality-reviewer', state, phase: 2, tasks, kind: 'quality', task: '5' },
        },
      ],
    },
  ];
}

/** The checkout-flow run. */
export function checkoutFlow(l: SandboxLayout): DemoRun {
  const project = path.join(l.projectsDir, FEATURE);
  const state = tinaStateDir(project);
  const phaseTeam = `${FEATURE}-phase-2`;
  const orchTeam = `${FEATURE}-orchestration`;
  const session = phaseSession(FEATURE, 2);
  const orch = orchestrationSession(FEATURE);
  const write = () => writeState(l, project, state, phaseTeam);

  const member = membersIn(project, session);
  const orchMember = membersIn(project, orch);

  return {
    summary: 'tina checkout-flow: phase 2 of 3, team of five; the lead raises checkpoint-needed in ~20 s',
    root: project,
    write,
    sessions: sessionsOf(l, project, orch, session),
    teams: [
      {
        name: orchTeam,
        description: `Orchestrating ${FEATURE} from docs/plans/2026-checkout-flow-design.md`,
        createdAt: l.now - 95 * 60_000,
        leadSessionId: 'demo-session-checkout-orch',
        members: [orchMember('team-lead', 'orchestrator', MODELS.opus)],
      },
      {
        name: phaseTeam,
        description: `Phase 2 execution team for ${FEATURE}`,
        createdAt: l.now - 34 * 60_000,
        leadSessionId: 'demo-session-checkout-phase-2',
        members: [
          member('team-lead', 'team-lead', MODELS.opus),
          member('worker-1', 'tina:implementer', MODELS.sonnet),
          member('worker-2', 'tina:implementer', MODELS.sonnet),
          member('spec-reviewer', 'tina:spec-reviewer', MODELS.opus),
          member('code-quality-reviewer', 'tina:code-quality-reviewer', MODELS.opus),
        ],
      },
    ],
  };
}
