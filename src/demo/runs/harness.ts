/**
 * The harness (Papercusp) project `sheets-clone`: named checkpoints in `.papercusp/config.json`,
 * `plan-approval` already fired and granted, a checkpoint hook in `.papercusp/hooks/`, and a runner
 * that fires `pre-done` after `fireAfterSec`. The log lines are the orchestrator's own forms
 * (`ORCH decision: <VERB> [arg] (role=…)`, `ORCH batch (…)`), from Papercusp/papercusp-app.
 */
import fs from 'node:fs';
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

/** The sheets-clone harness's files: its config, the granted plan-approval, the hook and the run log. */
function writeHarnessState(l: SandboxLayout, state: string): void {
  const at = (minutes: number) => isoSeconds(l.now - minutes * 60_000);
  writeJsonAtomic(path.join(state, 'config.json'), {
    models: { orchestrator: 'haiku', worker: 'sonnet', validator: 'opus' },
    planReviewer: { enabled: true },
    maxCostUsd: 10,
    checkpoints: {
      enabled: true,
      types: [
        {
          name: 'plan-approval',
          description: 'Human approves the plan before any worker runs',
          triggerOn: 'post-planner',
        },
        { name: 'pre-done', description: 'Human reviews before DONE is emitted', triggerOn: 'pre-done' },
        {
          name: 'db-migration',
          description: 'First feature that modifies the DB schema',
          triggerDoc: 'Fire before the first feature with a DB-modifying claim',
          triggerOn: 'feature-claim:db',
        },
      ],
    },
  });
  writeTextAtomic(path.join(state, 'checkpoint-plan-approval.md'), planApprovalBody(state, at(52)));
  writeTextAtomic(
    path.join(state, 'checkpoint-plan-approval.md.granted'),
    `granted at ${new Date(l.now - 47 * 60_000).toISOString()}\n`,
  );
  writeTextAtomic(path.join(state, '.checkpoint-plan-approval.fired'), '');
  // The project's hook for fired checkpoints: tower runs it when the operator requests one.
  const hook = path.join(state, 'hooks', 'on-checkpoint-fired.sh');
  writeTextAtomic(
    hook,
    '#!/bin/sh\necho "checkpoint $CHECKPOINT_NAME ($TRIGGER) on $HARNESS_SLUG: notify the reviewers"\n',
  );
  fs.chmodSync(hook, 0o755);
  writeTextAtomic(
    path.join(state, 'logs', 'run.log'),
    [
      `[${at(58)}] ORCH decision: NEXT_SCOPER (role=orchestrator)`,
      `[${at(52)}] HOOK on-checkpoint-fired running (log: ` +
        `${path.join(state, 'logs', 'hooks', `${Math.floor((l.now - 52 * 60_000) / 1000)}-on-checkpoint-fired.log`)})`,
      `[${at(46)}] ORCH batch (3 decisions, role=orchestrator): NEXT_WORKER F-1 | NEXT_WORKER F-2 | NEXT_WORKER F-3`,
      `[${at(30)}] ORCH decision: NEXT_VALIDATOR F-5 (role=orchestrator)`,
      `[${at(3)}] ORCH decision: NEXT_WORKER F-6 (role=orchestrator)`,
      '',
    ].join('\n'),
  );
}

/** The sheets-clone harness run. */
export function harnessProject(l: SandboxLayout, fireAfterSec: number): DemoRun {
  const project = path.join(l.projectsDir, 'sheets-clone');
  const state = path.join(project, '.papercusp');
  const write = () => writeHarnessState(l, state);

  return {
    summary:
      `harness sheets-clone: plan-approval granted; the runner fires the pre-done checkpoint ` +
      `after ~${fireAfterSec} s`,
    root: project,
    write,
    sessions: [
      {
        name: 'papercusp-sheets-clone',
        panes: [
          {
            member: 'run.sh',
            role: 'harness',
            cwd: project,
            flags: {
              sandbox: l.dir,
              speed: l.speed,
              name: 'run.sh',
              state,
              after: fireAfterSec,
              title: 'papercusp run.sh · sheets-clone',
            },
          },
        ],
      },
    ],
    teams: [],
  };
}
