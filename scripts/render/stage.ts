/**
 * A stage for screenshots: one program running in a pane of its own private tmux server, sized
 * exactly, with helpers to read its screen, wait for text and press keys. Everything goes
 * through TmuxClient, the project's one way of running tmux.
 */
import fs from 'node:fs';
import { TmuxClient } from '../../src/tmux/client.js';

/** Options of openStage. */
export interface StageOptions {
  /** The private server's socket name (`-L`); never the default server. */
  socketName: string;
  /** The shell command the pane runs. */
  command: string;
  cols: number;
  rows: number;
  /** Extra environment for the command (tmux `new-session -e`). */
  env?: Record<string, string>;
  cwd?: string;
  /** TERM inside the pane (tmux sets it from default-terminal). */
  term?: string;
}

/** A running stage. */
export interface Stage {
  tmux: TmuxClient;
  paneId: string;
  cols: number;
  rows: number;
}

/** Starts a private tmux server with one status-less session running `command`. */
export async function openStage(opts: StageOptions): Promise<Stage> {
  const tmux = new TmuxClient({ name: opts.socketName }, 5000);
  const env = Object.entries(opts.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // One invocation, so the options hold before the pane exists: no status line (the pane gets
  // every row) and the pane stays after its command exits (a one-shot command can be captured).
  let out: string;
  try {
    out = await tmux.run([
      // -f /dev/null: a shot must not depend on anyone's ~/.tmux.conf.
      ...['-f', '/dev/null', 'start-server', ';'],
      ...['set-option', '-g', 'status', 'off', ';'],
      ...['set-option', '-g', 'remain-on-exit', 'on', ';'],
      // Without this tmux 3.3+ writes "Pane is dead" over the output (-q: older tmux lacks it).
      ...['set-option', '-gq', 'remain-on-exit-format', '', ';'],
      ...['set-option', '-g', 'default-terminal', opts.term ?? 'xterm-256color', ';'],
      ...[
        'new-session',
        '-d',
        '-P',
        '-F',
        '#{pane_id}',
        '-s',
        'shot',
        '-x',
        String(opts.cols),
        '-y',
        String(opts.rows),
      ],
      ...(opts.cwd ? ['-c', opts.cwd] : []),
      ...env,
      opts.command,
    ]);
  } catch (err) {
    await killPrivateServer(tmux).catch(() => undefined);
    throw err;
  }
  const paneId = out.trim().split('\n').pop() ?? '';
  if (!paneId.startsWith('%')) throw new Error(`tmux new-session printed no pane id: ${JSON.stringify(out)}`);
  const stage = { tmux, paneId, cols: opts.cols, rows: opts.rows };
  try {
    await resizeStage(stage, opts.cols, opts.rows);
  } catch (err) {
    await killPrivateServer(tmux).catch(() => undefined);
    throw err;
  }
  return stage;
}

/** Resizes the stage's window (the program gets SIGWINCH). */
export async function resizeStage(stage: Stage, cols: number, rows: number): Promise<void> {
  await stage.tmux.run(['resize-window', '-t', stage.paneId, '-x', String(cols), '-y', String(rows)]);
  stage.cols = cols;
  stage.rows = rows;
}

/** The visible screen with its SGR escapes (`capture-pane -e -p`). */
export async function captureEscapes(stage: Stage): Promise<string> {
  return stage.tmux.run(['capture-pane', '-e', '-p', '-t', stage.paneId]);
}

/** The visible screen as plain text. */
export async function captureText(stage: Stage): Promise<string> {
  return stage.tmux.run(['capture-pane', '-p', '-t', stage.paneId]);
}

/** Whether the pane's command has exited. */
export async function paneDead(stage: Stage): Promise<boolean> {
  return (await stage.tmux.displayMessage(stage.paneId, '#{pane_dead}')) === '1';
}

/** What a screen is waited for: text it contains, a pattern, or any test of its text. */
export type ScreenCondition = string | RegExp | ((screen: string) => boolean);

function holds(condition: ScreenCondition, screen: string): boolean {
  if (typeof condition === 'string') return screen.includes(condition);
  if (condition instanceof RegExp) return condition.test(screen);
  return condition(screen);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the screen until `condition` holds; the error quotes the last screen it saw. */
export async function waitForScreen(
  stage: Stage,
  condition: ScreenCondition,
  opts: { timeoutMs?: number; what?: string } = {},
): Promise<string> {
  const end = Date.now() + (opts.timeoutMs ?? 15_000);
  let screen = '';
  for (;;) {
    screen = await captureText(stage);
    if (holds(condition, screen)) return screen;
    if (Date.now() > end) break;
    await sleep(100);
  }
  const what = opts.what ?? String(condition);
  throw new Error(`timed out waiting for ${what}; the screen was:\n${screen}`);
}

/** Waits until the screen stops changing for `quietMs` (a frame finished drawing). */
export async function waitForQuiet(stage: Stage, opts: { quietMs?: number; timeoutMs?: number } = {}): Promise<string> {
  const quietMs = opts.quietMs ?? 400;
  const end = Date.now() + (opts.timeoutMs ?? 5000);
  let last = await captureEscapes(stage);
  let since = Date.now();
  while (Date.now() < end) {
    await sleep(100);
    const now = await captureEscapes(stage);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      break;
    }
  }
  return last;
}

/** The index of the first screen row that matches, or -1. */
export function findRow(screen: string, needle: string | RegExp): number {
  return screen
    .split('\n')
    .findIndex((line) => (typeof needle === 'string' ? line.includes(needle) : needle.test(line)));
}

/** Presses named keys (`Enter`, `Escape`, `Down`, `?`) one after another. */
export async function pressKeys(stage: Stage, ...keys: string[]): Promise<void> {
  for (const key of keys) await stage.tmux.sendKey(stage.paneId, key);
}

/** Types text literally. */
export async function typeText(stage: Stage, text: string): Promise<void> {
  await stage.tmux.sendText(stage.paneId, text);
}

/** Kills a private server and removes its socket file, which tmux leaves behind. */
export async function killPrivateServer(tmux: TmuxClient): Promise<void> {
  const socketPath = await tmux.run(['display-message', '-p', '#{socket_path}']).catch(() => '');
  await tmux.killServer();
  if (socketPath.trim()) fs.rmSync(socketPath.trim(), { force: true });
}

/** Kills the stage's server (and the program with it). */
export async function closeStage(stage: Stage): Promise<void> {
  await killPrivateServer(stage.tmux);
}
