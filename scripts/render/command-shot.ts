/** Shooting one command: run it in a pane of a private tmux server, wait, capture, render. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SavedShot } from './shot.js';
import { checkShotName, saveShot } from './shot.js';
import { captureEscapes, closeStage, openStage, paneDead, waitForQuiet, waitForScreen } from './stage.js';
import type { Stage } from './stage.js';

/** A private tmux socket name no other run uses. */
export function privateSocket(prefix = 'tower-shots'): string {
  return `${prefix}-${crypto.randomBytes(4).toString('hex')}`;
}

/** Temp XDG dirs, so a shot never reads the user's config or writes to their audit log. */
export function privateXdg(): { env: Record<string, string>; cleanup: () => void } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tower-shots-xdg-'));
  const config = path.join(base, 'config');
  const state = path.join(base, 'state');
  fs.mkdirSync(config);
  fs.mkdirSync(state);
  return {
    env: { XDG_CONFIG_HOME: config, XDG_STATE_HOME: state },
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** One command to shoot. */
export interface CommandShot {
  command: string;
  name: string;
  cols: number;
  rows: number;
  title: string;
  waitFor: string | undefined;
  timeoutMs: number;
  /** Where the command runs (default: the current directory). */
  cwd?: string;
  /** The private tmux socket (default: a fresh random one). */
  socketName?: string;
  /** PNG pixel density. */
  scale?: number;
}

/** One shot of a command: run it in a fresh pane, wait until it exits (or shows `waitFor`), capture. */
export async function shootCommand(outDir: string, shot: CommandShot): Promise<SavedShot> {
  checkShotName(shot.name);
  const xdg = privateXdg();
  let stage: Stage | undefined;
  try {
    stage = await openStage({
      socketName: shot.socketName ?? privateSocket(),
      command: shot.command,
      cols: shot.cols,
      rows: shot.rows,
      cwd: shot.cwd ?? process.cwd(),
      env: xdg.env,
    });
    const live = stage;
    if (shot.waitFor !== undefined) {
      await waitForScreen(live, shot.waitFor, { timeoutMs: shot.timeoutMs });
    } else {
      await waitFor(() => paneDead(live), shot.timeoutMs, `${shot.command} to exit`);
    }
    await waitForQuiet(live, { quietMs: 300 });
    const capture = await captureEscapes(live);
    return await saveShot(
      outDir,
      shot.name,
      capture,
      { cols: shot.cols, rows: shot.rows },
      { title: shot.title, trim: true, ...(shot.scale !== undefined ? { scale: shot.scale } : {}) },
    );
  } finally {
    if (stage) await closeStage(stage).catch(() => undefined);
    xdg.cleanup();
  }
}

/** Polls an async test every 100 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(test: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
