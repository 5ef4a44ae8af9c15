/**
 * What the demo tests share: the agent script built from the current source (so a stale dist/
 * can't fool them), the CLI bundle for end-to-end runs, and pane reading.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundle as bundleInto } from '../../scripts/bundle.js';
import { readJsonObject } from '../../src/demo/files.js';
import type { TmuxClient } from '../../src/tmux/client.js';
import { tempDir as freshDir } from '../helpers/box.js';
import { waitFor } from '../helpers/wait-for.js';

const created: string[] = [];

/** Removes every temp dir this file's tests made (call after the sandboxes stopped). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Bundles entry points the way scripts/build.js does, into a fresh temp dir; returns the dir. */
export async function bundle(entryPoints: Record<string, string>): Promise<string> {
  const outdir = tempDir('tower-demo-build-');
  await bundleInto(outdir, entryPoints, { logLevel: 'error' });
  return outdir;
}

/** The fake-agent script built from src/demo/agent.ts. */
export async function buildAgentScript(): Promise<string> {
  return path.join(await bundle({ 'demo-agent': 'src/demo/agent.ts' }), 'demo-agent.js');
}

/** A fresh temp dir, removed by removeTempDirs(). */
export function tempDir(prefix = 'tower-demo-test-'): string {
  const dir = freshDir(prefix);
  created.push(dir);
  return dir;
}

/** A JSON object file, or null while it is missing or half-written. */
export const readObject = readJsonObject;

/** Waits until the pane's text (screen and scrollback) contains `text`; returns the capture. */
export async function waitForPane(
  tmux: TmuxClient,
  paneId: string,
  text: string | RegExp,
  timeoutMs = 20_000,
): Promise<string> {
  return waitFor(
    async () => {
      const captured = await tmux.capturePane(paneId, 200);
      return (typeof text === 'string' ? captured.includes(text) : text.test(captured)) ? captured : null;
    },
    timeoutMs,
    { intervalMs: 50, what: `pane ${paneId} to show ${String(text)}` },
  );
}

/** The pane id a team config gives a member. */
export function paneOf(claudeDir: string, team: string, member: string): string {
  const cfg = readObject(path.join(claudeDir, 'teams', team, 'config.json'));
  const m = (cfg?.members as Array<Record<string, unknown>> | undefined)?.find((x) => x.name === member);
  if (typeof m?.tmuxPaneId !== 'string') throw new Error(`no pane for ${team}/${member}`);
  return m.tmuxPaneId;
}
