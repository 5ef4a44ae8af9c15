/**
 * `tower`: the launcher of the control room. It checks the terminal and the keymap, reads one
 * snapshot and paints the real screen from it at once, before React and ink are even loaded (they
 * take most of the start-up); the session's first ink frame is that same screen, byte for byte.
 */
import v8 from 'node:v8';
import type { AppContext } from '../context/context.js';
import type { Snapshot } from '../model/model.js';
import { buildSnapshot } from '../store/snapshot.js';
import { openingFrame } from './first-frame/frame-text.js';
import type { Bindings } from '../keys/keymap.js';
import { bindingsFrom } from '../keys/keymap.js';
import { endProcess, toStderr } from './terminal/ending.js';
import { installLifecycle, SIGNAL_CODES } from './terminal/lifecycle.js';
import { ScreenPainter } from './terminal/screen-painter.js';
import { Terminal } from './terminal/terminal.js';
import { createTheme } from './theme.js';

/** The message when stdout is no terminal. */
export const NOT_A_TTY = 'tower: the control room needs a terminal (stdout is not a TTY); try `tower status`';

/**
 * Reads the snapshot and paints the opening screen; null (nothing painted) when the read failed or
 * other boxes are involved (their runs arrive over ssh, later than this box's files can be read).
 */
async function paintOpening(
  ctx: AppContext,
  bindings: Bindings,
  terminal: Terminal,
  painter: ScreenPainter,
): Promise<Snapshot | null> {
  if (ctx.hosts.length > 0 || !ctx.local) {
    terminal.enter();
    return null;
  }
  const now = Date.now();
  let snapshot: Snapshot;
  try {
    // With --no-local this box's runs are not shown at all, not even until the hosts answer.
    snapshot = ctx.local
      ? await buildSnapshot(ctx, { now, complete: false })
      : { version: 1, generatedAt: new Date(now).toISOString(), runs: [], problems: [] };
  } catch {
    // The live store reads again and reports what went wrong in the activity pane.
    terminal.enter();
    return null;
  }
  const out = process.stdout;
  const text = openingFrame(
    {
      snapshot,
      columns: out.columns || 80,
      rows: out.rows || 24,
      bindings,
      readonly: ctx.readonly,
      contextThreshold: ctx.config.contextThresholdPct,
      now,
    },
    createTheme(ctx.color),
  );
  // Entering the alternate screen only now keeps the shell in view until the real screen is ready.
  terminal.enter();
  // Keys typed before ink reads them must not echo over the screen; ink keeps raw mode on.
  process.stdin.setRawMode?.(true);
  painter.frame(text);
  painter.flush();
  return snapshot;
}

/** `tower`: the interactive control room. Refuses (exit 1) when stdout is not a TTY. */
export async function runControlRoom(ctx: AppContext): Promise<number> {
  const out = ctx.out as NodeJS.WriteStream;
  if (!out.isTTY) {
    ctx.err.write(`${NOT_A_TTY}\n`);
    return 1;
  }
  if (!process.stdin.isTTY) {
    ctx.err.write(
      'tower: the control room needs a terminal to read keys from (stdin is not a TTY); try `tower status`\n',
    );
    return 1;
  }
  // The validator is loaded only when there are overrides to check.
  const keys =
    Object.keys(ctx.config.keys).length === 0
      ? bindingsFrom({})
      : (await import('../keys/keymap-schema.js')).resolveBindings(ctx.config.keys);
  if (!keys.ok) {
    ctx.err.write(`tower: config ${ctx.configFile ?? ''}: ${keys.errors.join('; ')}\n`);
    return 2;
  }
  const terminal = new Terminal(process.stdout, process.stdin);
  // Until the session has its own handlers, a signal or a crash still gives the terminal back.
  const early = installLifecycle({
    onSignal(signal) {
      terminal.restore();
      void endProcess(SIGNAL_CODES[signal]);
    },
    onCrash(error) {
      terminal.restore();
      toStderr(`tower: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      void endProcess(1);
    },
  });
  try {
    const painter = new ScreenPainter(process.stdout);
    const first = await paintOpening(ctx, keys.bindings, terminal, painter);
    // The control room stays up for hours re-reading files and redrawing text: a heap that collects
    // eagerly keeps its memory near what it holds (on 50 runs × 200 tasks, ~120 MB instead of ~200 MB
    // after an hour of changes). Set after the opening frame so that it costs the start nothing.
    v8.setFlagsFromString('--optimize-for-size');
    const { startControlRoom } = await import('./session.js');
    return await startControlRoom(ctx, { bindings: keys.bindings, terminal, painter, first, onStarted: early });
  } finally {
    early();
    terminal.restore();
  }
}
