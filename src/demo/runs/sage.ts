/**
 * The SAGE project `billing`: epic EPIC-042 (nested checkpoint shape) waiting at its human gate, in
 * the forms SAGE's orchestrator writes (kwg/sage-method bin/orchestrate-v2.sh): `.last_signal`
 * holds the signal, `.last_signal_context` the raw stream-json lines around it, and
 * `.sage/logs/orchestrator-v2.log` the orchestrator's own log.
 */
import path from 'node:path';
import { orchestratorLogLine } from '../agents/sage.js';
import { isoSeconds, writeJsonAtomic, writeTextAtomic } from '../files.js';
import type { DemoRun, SandboxLayout } from '../plan.js';

const EPIC = 'EPIC-042';

/** The stream-json lines `claude -p --output-format stream-json` printed around the signal. */
function signalContext(sessionId: string): string {
  const text = [
    `Story ${EPIC}-story-3 plan is ready. The proration rules change how invoices round mid-cycle plan changes.`,
    '====',
    'SAGE_SIGNAL:HITL_REQUIRED',
    'reason: proration rules need a human decision',
    'checkpoint: .sage/state/EPIC-042.json',
    '====',
  ].join('\n');
  const assistant = {
    type: 'assistant',
    message: {
      id: 'msg_01demo',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4',
      content: [{ type: 'text', text }],
      stop_reason: null,
    },
    session_id: sessionId,
  };
  const result = {
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 84_211,
    num_turns: 12,
    result: 'Waiting for human approval of the proration rules.',
    session_id: sessionId,
  };
  return `${JSON.stringify(assistant)}\n${JSON.stringify(result)}\n\n`;
}

/** The billing project's sage files. */
function writeSageState(l: SandboxLayout, project: string, state: string): void {
  const at = (minutes: number) => isoSeconds(l.now - minutes * 60_000);
  writeJsonAtomic(path.join(state, `${EPIC}.json`), {
    version: '1.0',
    created: at(180),
    updated: at(6),
    project: { name: 'billing', root: project },
    git: {
      branch: 'epic-042',
      last_checkpoint_commit: '9c1e4ab',
      commit_message: `checkpoint: ${EPIC}-story-3-task-2-review`,
    },
    lifecycle: { phase: '2', phase_name: 'PLAN' },
    epic: {
      id: EPIC,
      file: 'docs/epics/EPIC-042-usage-based-billing.md',
      status: 'paused',
      stories_total: 5,
      stories_complete: 2,
    },
    current: {
      story_id: `${EPIC}-story-3`,
      story_file: 'docs/stories/EPIC-042-story-3.md',
      task_index: 2,
      task_total: 4,
      step: 'review',
      retry_count: 0,
    },
    parallel_plan: { batch_id: null, tasks: [], approved_parallel: false, file_conflicts: 'none' },
    completed: [
      { story_id: `${EPIC}-story-1`, status: 'done', checkpoint_commit: '4be21d0' },
      { story_id: `${EPIC}-story-2`, status: 'done', checkpoint_commit: '71f9a3c' },
    ],
    last_output: {
      subagent: 'reviewer',
      result: 'Plan for proration changes invoice rounding',
      action_required: 'human approval of the proration rules',
    },
    failure_history: [],
    metrics: {
      tokens_used: 412_000,
      subagents_spawned: 14,
      clears_performed: 3,
      recoveries_performed: 1,
      time_elapsed_minutes: 174,
    },
    next_action: {
      type: 'hitl',
      description: 'Approve the proration rules for mid-cycle plan changes before BUILD',
      subagent: null,
    },
  });
  writeTextAtomic(path.join(state, '.last_signal'), 'HITL_REQUIRED\n');
  writeTextAtomic(path.join(state, '.last_signal_context'), signalContext('5f0c2d7e-demo'));
  writeTextAtomic(path.join(state, '.pending_checkpoint'), `.sage/state/${EPIC}.json\n`);
  const ms = (minutes: number) => l.now - minutes * 60_000;
  writeTextAtomic(
    path.join(project, '.sage', 'logs', 'orchestrator-v2.log'),
    [
      orchestratorLogLine(ms(180), 'INFO', '=== SAGE Orchestrator v2 Starting ==='),
      orchestratorLogLine(ms(180), 'INFO', `Project root: ${project}`),
      orchestratorLogLine(ms(90), 'INFO', 'Detected signal: HITL_REQUIRED'),
      orchestratorLogLine(ms(90), 'INFO', 'Entering HITL wait loop...'),
      orchestratorLogLine(ms(75), 'INFO', 'Resume signal detected!'),
      orchestratorLogLine(ms(75), 'INFO', 'Resume status: APPROVED'),
      orchestratorLogLine(ms(75), 'SUCCESS', 'HitL approved - resuming'),
      orchestratorLogLine(ms(75), 'SUCCESS', 'Approval received - resuming orchestration'),
      orchestratorLogLine(ms(6), 'INFO', '--- Cycle 4 / 50 ---'),
      orchestratorLogLine(ms(6), 'INFO', 'Detected signal: HITL_REQUIRED'),
      orchestratorLogLine(ms(6), 'WARN', 'Human-in-the-loop required'),
      orchestratorLogLine(ms(6), 'INFO', 'Entering HITL wait loop...'),
    ].join(''),
  );
}

/** The billing SAGE run. */
export function sageProject(l: SandboxLayout): DemoRun {
  const project = path.join(l.projectsDir, 'billing');
  const state = path.join(project, '.sage', 'state');

  const write = () => writeSageState(l, project, state);

  return {
    summary: `SAGE billing: ${EPIC} waiting at the human gate (hitl)`,
    root: project,
    write,
    sessions: [
      {
        name: 'sage-billing',
        panes: [
          {
            member: 'sage',
            role: 'sage',
            cwd: project,
            flags: {
              sandbox: l.dir,
              speed: l.speed,
              name: 'sage',
              state,
              task: EPIC,
              title: `SAGE · billing · ${EPIC} story 3 of 5`,
            },
          },
        ],
      },
    ],
    teams: [],
  };
}
