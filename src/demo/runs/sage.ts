/** The SAGE project `billing`: epic EPIC-042 (nested checkpoint shape) waiting at its human gate. */
import path from 'node:path';
import { isoSeconds, writeJsonAtomic, writeTextAtomic } from '../files.js';
import type { DemoRun, SandboxLayout } from '../plan.js';

const EPIC = 'EPIC-042';

/** The billing SAGE run. */
export function sageProject(l: SandboxLayout): DemoRun {
  const project = path.join(l.projectsDir, 'billing');
  const state = path.join(project, '.sage', 'state');
  const at = (minutes: number) => isoSeconds(l.now - minutes * 60_000);

  const write = () => {
    writeJsonAtomic(path.join(state, `${EPIC}.json`), {
      version: '1.0',
      created: at(180),
      updated: at(6),
      project: { name: 'billing', root: project },
      git: { branch: 'epic-042', last_checkpoint_commit: '9c1e4ab', commit_message: `checkpoint: ${EPIC}-story-3-task-2-review` },
      lifecycle: { phase: '2', phase_name: 'PLAN' },
      epic: { id: EPIC, file: 'docs/epics/EPIC-042-usage-based-billing.md', status: 'paused', stories_total: 5, stories_complete: 2 },
      current: { story_id: `${EPIC}-story-3`, story_file: 'docs/stories/EPIC-042-story-3.md', task_index: 2, task_total: 4, step: 'review', retry_count: 0 },
      parallel_plan: { batch_id: null, tasks: [], approved_parallel: false, file_conflicts: 'none' },
      completed: [
        { story_id: `${EPIC}-story-1`, status: 'done', checkpoint_commit: '4be21d0' },
        { story_id: `${EPIC}-story-2`, status: 'done', checkpoint_commit: '71f9a3c' },
      ],
      last_output: { subagent: 'reviewer', result: 'Plan for proration changes invoice rounding', action_required: 'human approval of the proration rules' },
      failure_history: [],
      metrics: { tokens_used: 412_000, subagents_spawned: 14, clears_performed: 3, recoveries_performed: 1, time_elapsed_minutes: 174 },
      next_action: { type: 'hitl', description: 'Approve the proration rules for mid-cycle plan changes before BUILD', subagent: null },
    });
    writeTextAtomic(path.join(state, '.last_signal'), 'HITL_REQUIRED\n');
    writeTextAtomic(path.join(state, '.last_signal_context'), `${EPIC} story 3: proration rules need a human decision\n`);
    writeTextAtomic(path.join(state, '.pending_checkpoint'), `.sage/state/${EPIC}.json\n`);
  };

  return {
    summary: `SAGE billing: ${EPIC} waiting at the human gate (hitl)`,
    root: project,
    write,
    sessions: [
      {
        name: 'sage-billing',
        panes: [{ member: 'sage', role: 'sage', cwd: project, flags: { sandbox: l.dir, speed: l.speed, name: 'sage', state, task: EPIC, title: `SAGE · billing · ${EPIC} story 3 of 5` } }],
      },
    ],
    teams: [],
  };
}
