/**
 * A poll hook (the pane captures behind previews, prompts and activity) that keeps failing is a
 * problem row on the snapshot, gone once a tick succeeds: never silent, never a crash, never a
 * faster loop, one row however many ticks fail, its message one capped line.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/model.js';
import { createLiveStore, POLL_PROBLEM_CHARS } from '../../src/store/live-store.js';
import type { SnapshotStore } from '../../src/store/types.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { buildBox, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

/** A real tmux client that counts its pane listings: one per poll tick (and one at start). */
class CountingTmux extends TmuxClient {
  listings = 0;
  override async listPanes(opts: { signal?: AbortSignal } = {}) {
    this.listings++;
    return super.listPanes(opts);
  }
}

const POLL_ROW = /^reading the panes failed \(/;

let box: Box;
let tmux: TmuxFixture;
let counting: CountingTmux;
let store: SnapshotStore;
/** What the hook throws on its next call, or null: it succeeds. */
let failWith: (() => Error) | null;
let hookCalls: number;

const pollRows = (): Problem[] => store.getSnapshot().problems.filter((p) => POLL_ROW.test(p.message));

beforeEach(async () => {
  box = buildBox();
  tmux = await startTmux();
  const ctx = testContext({
    claudeDir: box.claudeDir,
    roots: box.roots,
    socketName: tmux.name,
    home: box.dir,
    config: { pollIntervalMs: 50 },
  });
  counting = new CountingTmux({ name: tmux.name }, 5000);
  ctx.tmux = counting;
  failWith = null;
  hookCalls = 0;
  store = createLiveStore(ctx, {
    onPoll: async () => {
      hookCalls++;
      await Promise.resolve();
      if (failWith) throw failWith();
    },
  });
});

afterEach(async () => {
  await store.stop();
  await tmux.kill();
  box.remove();
});

describe('a poll hook that fails', () => {
  it('is a problem row while it fails, gone after a tick that succeeds', async () => {
    failWith = () => new Error('capture went wrong');
    await store.start();
    const rows = await waitFor(() => pollRows().length > 0 && pollRows(), 5000, { what: 'the poll problem' });
    expect(rows).toEqual([
      {
        file: null,
        message:
          'reading the panes failed (capture went wrong): previews, prompts and activity may be out of date; tried again every poll',
      },
    ]);
    // The rest of the snapshot carries on: a run written now still shows.
    writeFile(
      path.join(box.project('sheets-clone'), '.papercusp', 'checkpoint-db-migration.md'),
      '# Checkpoint: db-migration (manual request)\n\nRequested at: 2026-01-26T12:00:00Z\n',
    );
    const gate = () => store.getSnapshot().runs.find((r) => r.id === 'harness:sheets-clone')?.gates;
    await waitFor(() => gate()?.some((g) => g.id === 'db-migration'), 5000, {
      what: 'the new checkpoint while the hook fails',
    });
    expect(pollRows()).toHaveLength(1);
    failWith = null;
    await waitFor(() => pollRows().length === 0, 5000, { what: 'the poll problem to clear' });
  });

  it('keeps one row however many ticks fail, each message one line of bounded length, and polls no faster', async () => {
    let n = 0;
    // Every failure says something else, with a pane's worth of text, escapes and newlines in it.
    failWith = () => new Error(`failure ${++n}\n\u001b[31m${'x'.repeat(10_000)}\u001b[0m`);
    await store.start();
    await waitFor(() => hookCalls >= 8, 10_000, { what: 'eight failing ticks' });
    const rows = pollRows();
    expect(rows).toHaveLength(1);
    const message = (rows[0] as Problem).message;
    expect(message).not.toMatch(/[\n\u001b]/);
    expect(message.length).toBeLessThan(POLL_PROBLEM_CHARS + 120);
    expect(message).toMatch(/^reading the panes failed \(failure \d+ x+…\)/);
    // One hook call per pane listing: a failure arms the next tick at the usual interval, no sooner.
    expect(hookCalls).toBeLessThanOrEqual(counting.listings);
    failWith = null;
    await waitFor(() => pollRows().length === 0, 5000, { what: 'the poll problem to clear' });
  });
});
