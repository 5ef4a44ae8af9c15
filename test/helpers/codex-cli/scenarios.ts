/**
 * The Codex scenarios the tests and scripts/capture-codex-fixtures.ts drive, written once: a turn
 * that asks to run a command outside the sandbox (`exec_command` with `sandbox_permissions:
 * "require_escalated"`, which `approval_policy = "on-request"` puts to the user), the turn after it
 * ran, a slow text turn (the screen while working), and the steps that bring each about.
 */
import type { CodexRun } from './launch.js';
import { lastCallOutput, lastUserText, type Turn, type Usage } from './responses-api.js';

/** The dialog's question, as 0.169.0 draws it. */
export const DIALOG_QUESTION = 'Would you like to run the following command?';

/** A turn asking to run `cmd` unsandboxed when the user's message holds `trigger`; `why` is the dialog's Reason. */
export function escalationTurn(trigger: string, cmd: string, why: string, usage?: Partial<Usage>): Turn {
  return {
    when: (r) => lastUserText(r).includes(trigger) && lastCallOutput(r) === null,
    items: [
      {
        type: 'call',
        name: 'exec_command',
        args: { cmd, sandbox_permissions: 'require_escalated', justification: why },
      },
    ],
    usage,
  };
}

/** The turn after a command ran for the message holding `trigger`: a line of text. */
export function afterRunTurn(trigger: string, text: string, usage?: Partial<Usage>): Turn {
  return {
    when: (r) => lastUserText(r).includes(trigger) && lastCallOutput(r) !== null,
    items: [{ type: 'text', text }],
    usage,
  };
}

/** A text turn that streams slowly (the screen says it is working meanwhile). */
export function slowTurn(trigger: string, text: string, delayMs: number): Turn {
  return {
    when: (r) => lastUserText(r).includes(trigger) && lastCallOutput(r) === null,
    items: [{ type: 'text', text }],
    delayMs,
  };
}

/**
 * Types a message the way that lands: one bracketed paste, then a carriage return (keys typed in a
 * burst are read as a paste, and a carriage return soon after them as a newline).
 */
export async function say(c: CodexRun, text: string): Promise<void> {
  await c.tmux.run(['set-buffer', '-b', 'say', '--', text]);
  await c.tmux.run(['paste-buffer', '-p', '-d', '-b', 'say', '-t', c.paneId]);
  await c.tmux.run(['send-keys', '-t', c.paneId, '-H', '0D']);
}

/** Sends `text` and waits for the dialog; returns the screen. */
export async function askForDialog(c: CodexRun, text: string): Promise<string> {
  await say(c, text);
  return c.waitForScreen(DIALOG_QUESTION, 60_000);
}
