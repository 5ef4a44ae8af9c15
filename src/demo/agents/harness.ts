/**
 * The harness runner (Papercusp's run.sh and its orchestrator): it works through features, then
 * fires the `pre-done` checkpoint after `--after` seconds — the pending file with the auto body and
 * the `.fired` sentinel — and pauses (run.sh exit 8). A fired checkpoint is not an orchestrator
 * decision: the deprecated `CHECKPOINT` verb would be an escalation. It notices checkpoints
 * requested by hand and grants as they appear, and finishes (`ORCH decision: DONE (role=…)`) once
 * pre-done is granted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

const PROGRESS = [
  '[worker] F-6 formula bar: parser handles nested SUM()',
  '[validator] F-6 formula bar: 42 tests pass (RUN evidence attached)',
  '[worker] F-7 column resize: drag handles on header cells',
  '[validator] F-7 column resize: screenshot diff within tolerance',
  '[worker] F-8 CSV export: quoting of commas and newlines',
] as const;

/** The body run.sh writes for an auto-fired checkpoint. */
export function autoCheckpointBody(name: string, trigger: string, stateDir: string, at: string): string {
  const file = path.join(stateDir, `checkpoint-${name}.md`);
  return (
    `# Checkpoint: ${name} (auto, triggerOn=${trigger})\n\n` +
    `Requested at: ${at}\n` +
    'Trigger: the orchestrator is about to emit DONE: every feature passed validation.\n\n' +
    'Review the diff before the mission is marked done.\n\n' +
    '## How to grant\n' +
    `- UI: /api/harness/<slug>/checkpoint/${name}/grant\n` +
    `- CLI: touch ${file}.granted && re-run the harness\n`
  );
}

/** The checkpoint files of the state dir: name → granted. */
function checkpoints(stateDir: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  let names: string[] = [];
  try {
    names = fs.readdirSync(stateDir);
  } catch {
    return out;
  }
  for (const n of names) {
    const m = /^checkpoint-([A-Za-z0-9_.-]+)\.md$/.exec(n);
    if (m?.[1]) out.set(m[1], names.includes(`${n}.granted`));
  }
  return out;
}

/** Starts the harness runner. */
export function runHarness(rt: AgentRuntime): void {
  const stateDir = rt.opts.state;
  if (!stateDir) throw new Error('harness needs --state');
  const log = path.join(stateDir, 'logs', 'run.log');
  const decide = (text: string) => {
    rt.appendText(log, `[${isoSeconds(Date.now())}] ORCH decision: ${text} (role=orchestrator)\n`);
    rt.print(style.bold(`ORCH decision: ${text}`));
  };
  let step = 0;
  let paused = false;
  let done = false;
  const known = checkpoints(stateDir);

  rt.print(style.bold(`✻ ${rt.opts.title ?? 'papercusp run.sh'}`));
  rt.print(
    style.dim(`  state ${path.basename(stateDir)}/ · checkpoints: ${[...known.keys()].join(', ') || 'none yet'}`),
  );

  rt.every(
    4000,
    6000,
    () => {
      if (paused || done) return;
      const line = PROGRESS[step++ % PROGRESS.length] ?? '';
      rt.appendText(log, `[${isoSeconds(Date.now())}] ${line}\n`);
      rt.print(line);
    },
    1000,
  );

  rt.after((rt.opts.after ?? 15) * 1000, () => {
    const pending = path.join(stateDir, 'checkpoint-pre-done.md');
    const fired = path.join(stateDir, '.checkpoint-pre-done.fired');
    // Fired once per mission: never again, even after the file is granted and consumed.
    if (fs.existsSync(fired) || fs.existsSync(pending)) {
      rt.print(style.dim('pre-done already fired this mission'));
      return;
    }
    rt.writeText(pending, autoCheckpointBody('pre-done', 'pre-done', stateDir, isoSeconds(Date.now())));
    rt.writeText(fired, '');
    known.set('pre-done', false);
    rt.appendText(log, `[${isoSeconds(Date.now())}] checkpoint pre-done fired (triggerOn=pre-done)\n`);
    paused = true;
    rt.print(style.amber('⏸ paused at checkpoint pre-done · run.sh exit 8 · waiting for a grant'));
  });

  // Grants and hand-made requests show up as files: watch the state dir for them.
  rt.every(1000, 1000, () => {
    for (const [name, granted] of checkpoints(stateDir)) {
      const before = known.get(name);
      known.set(name, granted);
      if (before === undefined && !granted) {
        paused = true;
        rt.print(style.amber(`⏸ checkpoint ${name} requested · pausing before the next iteration`));
      } else if (before === false && granted) {
        rt.print(style.green(`▶ ${name} granted · re-running: the startup check consumes the grant`));
        if (name === 'pre-done' && !done) {
          done = true;
          decide('DONE');
        }
        paused = [...known.values()].some((g) => !g);
      }
    }
  });
}
