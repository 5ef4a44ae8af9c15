/**
 * A stand-in for Codex, opencode or Gemini CLI: it draws what the real CLI draws (cli-screens.ts)
 * and takes keys the way it does, one by one, in raw mode. It starts on a turn, asks to run
 * `--ask` after `--after` seconds and waits at that dialog: Codex takes `1`/`y` (`2`/`p` always)
 * at once, `3` or Escape cancels the turn; Gemini CLI a digit at once (`3` or Escape: no); opencode
 * moves its selection with Left/Right, takes it with Enter and rejects with Escape, digits do
 * nothing. At its input box a line typed (or pasted, bracketed) and Enter starts a short turn.
 */
import type { StandInCli, StandInState } from './cli-screens.js';
import {
  codexAnswered,
  codexScreen,
  geminiAnswered,
  geminiScreen,
  OPENCODE_OPTIONS,
  opencodeAnswered,
  opencodeScreen,
  replyLine,
  screenLines,
  userLine,
} from './cli-screens.js';
import type { AgentRuntime } from './runtime.js';

/** The most characters the input box holds, and the most conversation lines kept. */
const MAX_TYPED = 500;
const MAX_TRANSCRIPT = 200;
/** How long a turn runs before its answer (demo ms). */
const TURN_MS = 6000;

/** One key read from the terminal. */
export type Key =
  | { kind: 'text'; text: string }
  | { kind: 'enter' | 'escape' | 'left' | 'right' | 'backspace' | 'paste-start' | 'paste-end' };

/** The keys in a chunk of terminal input: text, Enter, Escape, arrows, bracketed paste markers. */
export function parseKeys(data: string): Key[] {
  const keys: Key[] = [];
  let text = '';
  const flush = () => {
    if (text) keys.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === '\u001b') {
      flush();
      const csi = /^\u001b\[([0-9;]*)([@-~])/.exec(data.slice(i));
      if (!csi) {
        keys.push({ kind: 'escape' });
        continue;
      }
      i += csi[0].length - 1;
      const [, params, final] = csi;
      if (final === 'C') keys.push({ kind: 'right' });
      else if (final === 'D') keys.push({ kind: 'left' });
      else if (final === '~' && params === '200') keys.push({ kind: 'paste-start' });
      else if (final === '~' && params === '201') keys.push({ kind: 'paste-end' });
    } else if (c === '\r' || c === '\n') {
      flush();
      keys.push({ kind: 'enter' });
    } else if (c === '\u007f' || c === '\b') {
      flush();
      keys.push({ kind: 'backspace' });
    } else if (c >= ' ') text += c;
  }
  flush();
  return keys;
}

/** What a key does at the dialog: the option it takes (0-based), or null (the dialog stays). */
export function dialogChoice(cli: StandInCli, key: Key, selected: number): number | null {
  if (key.kind === 'escape') return 2;
  if (cli === 'opencode') return key.kind === 'enter' ? selected : null;
  if (key.kind === 'enter') return 0;
  if (key.kind !== 'text') return null;
  const k = key.text.toLowerCase();
  if (k === '1' || (cli === 'codex' && k === 'y')) return 0;
  if (k === '2' || (cli === 'codex' && k === 'p')) return 1;
  if (k === '3' || (cli === 'gemini' && k === 'n')) return 2;
  return null;
}

/** The stand-in at start: working on its first turn, asked (later) about the command it was given. */
function startState(rt: AgentRuntime): StandInState & { transcript: string[] } {
  return {
    phase: 'working',
    cwd: process.cwd(),
    transcript: [],
    typed: '',
    seconds: 0,
    command: rt.opts.ask ?? '',
    reason: rt.opts.reason ?? `Run ${rt.opts.ask ?? 'it'} outside the sandbox?`,
    selected: 0,
  };
}

/** Draws the screen whole over the last one. */
function paint(draw: (s: StandInState, width: number) => Parameters<typeof screenLines>[0], s: StandInState): void {
  const width = process.stdout.columns ?? 80;
  const lines = screenLines(draw(s, width), process.stdout.rows ?? 24);
  // Lines are cut to the width (a wrapped line would push the box out of place); the one line that
  // carries colour (opencode's options) is drawn narrow enough already.
  const cut = lines.map((l) => (l.includes('\u001b') ? l : [...l].slice(0, width).join('')));
  process.stdout.write(`\u001b[H${cut.map((l) => `${l}\u001b[K`).join('\r\n')}\u001b[J`);
}

/** Edits the input box by a key; the line submitted (Enter at rest, outside a paste), else null. */
function editLine(s: StandInState, key: Key, pasting: boolean): string | null {
  if (key.kind === 'text') s.typed = (s.typed + key.text).slice(0, MAX_TYPED);
  else if (key.kind === 'backspace') s.typed = s.typed.slice(0, -1);
  else if (key.kind === 'enter' && pasting) s.typed = `${s.typed} `.slice(0, MAX_TYPED);
  else if (key.kind === 'enter' && s.phase === 'idle' && s.typed.trim() !== '') {
    const text = s.typed.trim();
    s.typed = '';
    return text;
  }
  return null;
}

/** Reads the terminal's keys raw, with bracketed paste and the cursor hidden, until the stand-in stops. */
function takeTerminal(rt: AgentRuntime, onKey: (key: Key) => void, render: () => void): void {
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (data: string) => {
    for (const key of parseKeys(data)) onKey(key);
    render();
  });
  // Bracketed paste on, as Codex and Gemini CLI ask for it; the cursor hidden, as a TUI does.
  process.stdout.write('\u001b[?2004h\u001b[?25l\u001b[2J');
  rt.onStop(() => {
    process.stdout.write('\u001b[?2004l\u001b[?25h');
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    process.stdin.pause();
  });
  process.stdout.on('resize', render);
}

/** Starts the stand-in. */
export function runCliStandIn(cli: StandInCli, rt: AgentRuntime): void {
  const draw = { codex: codexScreen, opencode: opencodeScreen, gemini: geminiScreen }[cli];
  const s = startState(rt);
  let turnStarted = Date.now();
  let pasting = false;

  const say = (lines: readonly string[]) => {
    s.transcript.push(...lines);
    s.transcript.splice(0, Math.max(0, s.transcript.length - MAX_TRANSCRIPT));
  };
  const render = () => paint(draw, s);
  const startTurn = () => {
    s.phase = 'working';
    turnStarted = Date.now();
    s.seconds = 0;
  };
  const endTurn = (reply: string) => {
    say(replyLine(cli, reply));
    if (cli === 'codex')
      say(['', `  Worked for ${Math.max(1, s.seconds)}s • ${new Date().toTimeString().slice(0, 5)}`]);
    s.phase = 'idle';
  };

  const answer = (option: number) => {
    s.phase = 'idle';
    const approved = option !== 2;
    if (cli === 'codex') say(['', ...codexAnswered(s.command, approved, option === 1)]);
    else if (cli === 'opencode') say(opencodeAnswered(s.command, option));
    else say(geminiAnswered(s.command, option + 1));
    // Codex and Gemini CLI end the turn on No; opencode stops it after Reject: the model hears nothing.
    if (approved) {
      startTurn();
      rt.after(TURN_MS, () => {
        endTurn(`Ran ${s.command}: no problems found.`);
        render();
      });
    }
  };

  const onKey = (key: Key) => {
    if (key.kind === 'paste-start' || key.kind === 'paste-end') {
      pasting = key.kind === 'paste-start';
      return;
    }
    if (s.phase === 'asking' && !pasting) {
      if (cli === 'opencode' && (key.kind === 'left' || key.kind === 'right')) {
        const n = OPENCODE_OPTIONS.length;
        s.selected = (s.selected + (key.kind === 'right' ? 1 : n - 1)) % n;
        return;
      }
      const option = dialogChoice(cli, key, s.selected);
      if (option !== null) answer(option);
      return;
    }
    if (s.phase === 'asking') return;
    const text = editLine(s, key, pasting);
    if (text !== null) {
      say(userLine(cli, text));
      startTurn();
      rt.after(TURN_MS, () => {
        endTurn(`Noted: ${text}`);
        render();
      });
    }
  };

  takeTerminal(rt, onKey, render);

  if (rt.opts.title) say(userLine(cli, rt.opts.title));
  startTurn();
  rt.every(1000, 1000, () => {
    if (s.phase === 'working') s.seconds = Math.floor((Date.now() - turnStarted) / 1000);
    render();
  });
  rt.after((rt.opts.after ?? 10) * 1000, () => {
    if (rt.opts.ask) {
      s.phase = 'asking';
      s.selected = 0;
    } else endTurn('Done: nothing to change.');
    render();
  });
  render();
}
