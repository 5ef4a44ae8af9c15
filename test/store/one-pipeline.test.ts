/**
 * `tower status` and the live store are one pipeline: for the same tree and the same panes they
 * give the same snapshot (leaving out generatedAt, which depends on the clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { createLiveStore } from '../../src/store/live-store.js';
import { buildSnapshot } from '../../src/store/snapshot.js';
import { buildBox } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import { joinedNow } from '../helpers/fixtures.js';

let box: Box;
let tmux: TmuxFixture;
beforeAll(async () => {
  box = buildBox();
  tmux = await startTmux();
  // A live lead for the tina run (found from its session) and a pane in a project (found from its cwd).
  await tmux.newSession('tina-auth-flow-phase-2', box.project('auth-flow'));
  await tmux.newSession('work', box.project('sheets-clone'));
  joinedNow(box.claudeDir);
});
afterAll(async () => {
  await tmux.kill();
  box.remove();
});

function comparable(s: Snapshot): unknown {
  const { generatedAt: _clock, ...rest } = s;
  return JSON.parse(JSON.stringify(rest)) as unknown;
}

async function both(socketName: string, roots: string[]): Promise<[Snapshot, Snapshot]> {
  const ctx = testContext({ claudeDir: box.claudeDir, roots, socketName, home: box.dir });
  const status = await buildSnapshot(ctx);
  const store = createLiveStore(ctx);
  try {
    await store.start();
    return [status, store.getSnapshot()];
  } finally {
    await store.stop();
  }
}

describe('one pipeline for status and the live store', () => {
  it('gives the same snapshot for the same tree and panes', async () => {
    const [status, live] = await both(tmux.name, box.roots);
    expect(status.runs.length).toBeGreaterThan(5);
    expect(status.runs.some((r) => r.members.some((m) => m.state === 'alive'))).toBe(true);
    expect(comparable(live)).toEqual(comparable(status));
  });

  it('gives the same snapshot with roots found only by discovery, and with no tmux server', async () => {
    const [s1, l1] = await both(tmux.name, []);
    expect(comparable(l1)).toEqual(comparable(s1));
    const [s2, l2] = await both(uniqueSocketName(), box.roots);
    expect(s2.runs.some((r) => r.members.some((m) => m.paneId && m.state === 'unknown'))).toBe(true);
    expect(comparable(l2)).toEqual(comparable(s2));
  });
});
