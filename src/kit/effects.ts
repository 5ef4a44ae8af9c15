/** Builders of the exact effect lines a plan shows in the confirm dialog and prints under --dry-run. */
import type { TmuxClient } from '../tmux/client.js';
import { literalArg } from '../tmux/client.js';
import type { Effect } from './types.js';

/** Quotes one word for a POSIX shell, only when it needs it, so the line can be pasted as is. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A tmux command line with the client's socket flags, exactly as TmuxClient runs it. */
export function tmuxEffect(tmux: TmuxClient, args: readonly string[]): Effect {
  return { kind: 'tmux', text: ['tmux', ...tmux.argv(args)].map(shellQuote).join(' ') };
}

/** The two tmux calls of TmuxClient.sendLine: the text literally, then Enter apart. */
export function sendLineEffects(tmux: TmuxClient, target: string, text: string): Effect[] {
  return [
    tmuxEffect(tmux, ['send-keys', '-t', target, '-l', '--', literalArg(text)]),
    tmuxEffect(tmux, ['send-keys', '-t', target, 'Enter']),
  ];
}

/** An atomic replace of `file` with `content` (the content JSON-quoted so the effect stays one line). */
export function writeEffect(file: string, content: string): Effect {
  return { kind: 'write', text: `write ${file} ${JSON.stringify(content)}` };
}

/** One line break written into a FIFO to wake what reads it (nothing written when nothing does). */
export function wakeEffect(fifo: string, note: string): Effect {
  return { kind: 'write', text: `write "\\n" into ${fifo} ${note}` };
}

/** An exclusive create of `file` (refused if it exists). */
export function createEffect(file: string, content: string): Effect {
  return { kind: 'create', text: `create ${file} ${JSON.stringify(content)}` };
}

/** A deletion of `file` (a missing file is not an error). */
export function deleteEffect(file: string, note = ''): Effect {
  return { kind: 'delete', text: `delete ${file}${note ? ` ${note}` : ''}` };
}

/** A wait, said in words: what for and how long. */
export function waitEffect(text: string): Effect {
  return { kind: 'wait', text: `wait ${text}` };
}

/**
 * A look before (or after) the effects, said in words: what is checked and what follows from it.
 * Its kind stays `wait` (what a plan does meanwhile), which every tower of another box reads.
 */
export function checkEffect(text: string): Effect {
  return { kind: 'wait', text: `check ${text}` };
}

/** Signals sent to processes. */
export function signalEffect(text: string): Effect {
  return { kind: 'signal', text: `signal ${text}` };
}

/** A program run (a hook), with its env. */
export function runEffect(text: string): Effect {
  return { kind: 'run', text: `run ${text}` };
}

/** An HTTP request to a service's API: the method, the URL and the JSON body sent, if any. */
export function httpEffect(method: 'GET' | 'POST', url: string, body: string | null, note = ''): Effect {
  return { kind: 'http', text: `${method} ${url}${body === null ? '' : ` ${body}`}${note ? ` ${note}` : ''}` };
}

/** Seconds for messages: "5 s", "1.5 s". */
export function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
