/**
 * The handoff's Markdown reader is loaded on demand (src/systems/tina/markdown.ts): a read before it
 * is loaded has the handoff's time and path but not its content and starts the load; the snapshot
 * of `tower status` loads it and reads again, the first frame's does not wait for it, and the live
 * store reads the tina runs again once it is loaded. Each test runs
 * on fresh module instances, as a new process would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { copyFixtureTree } from '../helpers/fixtures.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let dir: string;
let root: string;
beforeEach(() => {
  vi.resetModules();
  dir = tempDir('tower-handoff-demand-');
  copyFixtureTree('tina/worktrees', path.join(dir, 'worktrees'), dir);
  root = path.join(dir, 'worktrees', 'my-feature');
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

const handoffFile = () => path.join(root, '.claude', 'tina', 'phase-2', 'handoff.md');

describe('the handoff parser on demand', () => {
  it('is asked for by a read that meets a handoff, which then reads once it is loaded', async () => {
    const deferred = await import('../../src/systems/deferred.js');
    const { readTinaFiles } = await import('../../src/systems/tina/files.js');
    expect(deferred.deferredWork()).toBeNull();
    const before = readTinaFiles(path.join(root, '.claude', 'tina'));
    expect(before.handoff?.file).toBe(handoffFile());
    expect(before.handoff?.mtimeMs).toBeGreaterThan(0);
    expect(before.handoff?.value).toBeNull();
    const waiting = deferred.deferredWork();
    expect(waiting).not.toBeNull();
    await waiting;
    expect(deferred.deferredWork()).toBeNull();
    const after = readTinaFiles(path.join(root, '.claude', 'tina'));
    expect(after.handoff?.value?.tasks.length).toBeGreaterThan(0);
  });

  it("is loaded by the status snapshot, and not waited for by the first frame's", async () => {
    const { buildSnapshot } = await import('../../src/store/snapshot.js');
    const ctx = testContext({ claudeDir: path.join(dir, 'no-claude'), roots: [root], socketName: uniqueSocketName() });
    const tasksOf = (s: Awaited<ReturnType<typeof buildSnapshot>>) =>
      s.runs.find((r) => r.id === 'tina:my-feature')?.tasks.length;
    const first = await buildSnapshot(ctx, { complete: false });
    expect(first.runs.find((r) => r.id === 'tina:my-feature')?.handoff?.path).toBe(handoffFile());
    expect(tasksOf(first)).toBe(0);
    const status = await buildSnapshot(ctx);
    expect(tasksOf(status)).toBeGreaterThan(0);
  });
});

describe('the live store', () => {
  it('fills in handoff content once the parser it asked for is loaded', async () => {
    const deferred = await import('../../src/systems/deferred.js');
    const { createLiveStore } = await import('../../src/store/live-store.js');
    const ctx = testContext({ claudeDir: path.join(dir, 'no-claude'), roots: [root], socketName: uniqueSocketName() });
    const store = createLiveStore(ctx);
    try {
      await store.start();
      const tasks = () => store.getSnapshot().runs.find((r) => r.id === 'tina:my-feature')?.tasks.length ?? 0;
      await waitFor(() => tasks() > 0, 10_000, { what: "the handoff's tasks in the live snapshot" });
      expect(deferred.deferredWork()).toBeNull();
      expect(store.getSnapshot().runs.find((r) => r.id === 'tina:my-feature')?.handoff?.path).toBe(handoffFile());
    } finally {
      await store.stop();
    }
  });
});
