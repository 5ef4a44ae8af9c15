/**
 * A SAGE epic run waiting at its human gate, answered the way SAGE's orchestrator answers it: it
 * polls `.resume-signal`, reads the status (a `STATUS: APPROVED` line, or the JSON
 * `{"status": ...}` the webhook receiver writes), logs the answer in `.sage/logs/orchestrator-v2.log`
 * and DELETES the file, whatever the answer. On APPROVED it resumes: the epic's next action becomes
 * `continue` and the next signal replaces HITL_REQUIRED.
 */
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The time as the orchestrator's `date -Iseconds` prints it (`2026-05-08T12:00:00+00:00`). */
export function dateIseconds(ms: number): string {
  return isoSeconds(ms).replace(/Z$/, '+00:00');
}

/** One line of orchestrator-v2.log: `[<date -Iseconds>] [LEVEL] msg`. */
export function orchestratorLogLine(ms: number, level: string, msg: string): string {
  return `[${dateIseconds(ms)}] [${level}] ${msg}\n`;
}

/** The status in a resume signal, either form; the orchestrator upper-cases the first line when no STATUS: is found. */
export function resumeStatusOf(text: string): string | null {
  const line = /STATUS:\s*([A-Za-z]+)/.exec(text)?.[1];
  if (line) return line.toUpperCase();
  const json = /"status"\s*:\s*"([A-Za-z]+)"/i.exec(text)?.[1];
  if (json) return json.toUpperCase();
  const first = text.split('\n')[0]?.trim() ?? '';
  return first === '' ? null : first.toUpperCase();
}

/** Starts the SAGE pane. */
export function runSage(rt: AgentRuntime): void {
  const stateDir = rt.opts.state;
  const epicId = rt.opts.task ?? 'EPIC-001';
  if (!stateDir) throw new Error('sage needs --state');
  const epicFile = path.join(stateDir, `${epicId}.json`);
  const resumeFile = path.join(stateDir, '.resume-signal');
  const logFile = path.join(path.dirname(stateDir), 'logs', 'orchestrator-v2.log');
  const log = (level: string, msg: string) => rt.appendText(logFile, orchestratorLogLine(Date.now(), level, msg));
  const epic = rt.readObject(epicFile);
  const next = asObject(epic?.next_action);
  const commit = asObject(epic?.git).last_checkpoint_commit;

  rt.print(style.bold(`✻ ${rt.opts.title ?? `SAGE · ${epicId}`}`));
  rt.print('═══ SAGE_SIGNAL:CHECKPOINT ═══');
  rt.print(`CHECKPOINT_FILE: .sage/state/${epicId}.json`);
  rt.print(`COMMIT: ${typeof commit === 'string' ? commit : 'unknown'}`);
  rt.print(`NEXT_ACTION: ${typeof next.type === 'string' ? next.type : 'unknown'}`);
  rt.print('═══════════════════════════════');
  rt.print('SAGE_SIGNAL:HITL_REQUIRED');
  rt.print(
    style.amber(
      `⏸ waiting at the human gate: ${typeof next.description === 'string' ? next.description : 'approval needed'}`,
    ),
  );
  rt.print(style.dim('  answer with STATUS: APPROVED | REVISE | DISCUSS | HALT in .sage/state/.resume-signal'));

  let answered = false;
  rt.every(1000, 1000, () => {
    if (answered) return;
    const text = rt.readText(resumeFile);
    if (text === null) return;
    const status = resumeStatusOf(text) ?? '';
    answered = true;
    log('INFO', 'Resume signal detected!');
    log('INFO', `Resume status: ${status}`);
    // Consumed once read, whatever it says: the answer lives on only in the log.
    rt.removeFile(resumeFile);
    rt.print(style.green(`▶ resume signal: STATUS: ${status}`));
    if (status === 'REVISE' || status === 'DISCUSS' || status === 'HALT') {
      log('WARN', `${status === 'HALT' ? 'Halt' : status === 'REVISE' ? 'Revision' : 'Discussion'} requested`);
      rt.print(style.dim(`  ${status.toLowerCase()}: the story goes back to the planner`));
      return;
    }
    log('SUCCESS', 'HitL approved - resuming');
    log('SUCCESS', 'Approval received - resuming orchestration');
    rt.after(2000, () => {
      const current = rt.readObject(epicFile);
      if (!current) {
        rt.print(style.amber(`${epicId}.json is unreadable; not resuming`));
        return;
      }
      rt.writeJson(epicFile, {
        ...current,
        updated: isoSeconds(Date.now()),
        lifecycle: { phase: '3', phase_name: 'BUILD' },
        epic: { ...asObject(current.epic), status: 'in_progress' },
        next_action: {
          type: 'continue',
          description: 'Build story 3: proration for mid-cycle plan changes',
          subagent: null,
        },
      });
      log('INFO', 'Detected signal: CHECKPOINT');
      rt.writeText(path.join(stateDir, '.last_signal'), 'CHECKPOINT\n');
      rt.print('SAGE_SIGNAL:CHECKPOINT:WRITE');
      rt.print('building story 3 · task 3 of 4');
    });
  });
}
