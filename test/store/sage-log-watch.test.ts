/**
 * The live store watches SAGE's orchestrator log (`.sage/logs/orchestrator-v2.log`, outside the state
 * dir): when the orchestrator logs that it read and deleted the answer, the gate stops being pending
 * without any change in `.sage/state/` (kwg/sage-method bin/orchestrate-v2.sh).
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Run } from '../../src/model/model.js';
import { createLiveStore } from '../../src/store/live-store.js';
import type { SnapshotStore } from '../../src/store/types.js';
import { buildBox, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { setMtime } from '../helpers/fixtures.js';
import { startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let box: Box;
let tmux: TmuxFixture;
let store: SnapshotStore;

beforeEach(async () => {
  box = buildBox();
  // The HITL signal was raised a minute ago.
  const state = path.join(box.project('epic-app'), '.sage', 'state');
  for (const f of ['.last_signal', 'EPIC-002.json']) setMtime(path.join(state, f), Date.now() - 60_000);
  tmux = await startTmux();
  const ctx = testContext({
    claudeDir: box.claudeDir,
    roots: box.roots,
    socketName: tmux.name,
    home: box.dir,
    config: { pollIntervalMs: 100 },
  });
  store = createLiveStore(ctx);
  await store.start();
});

afterEach(async () => {
  await store.stop();
  await tmux.kill();
  box.remove();
});

const sageRun = (): Run | undefined => store.getSnapshot().runs.find((r) => r.system === 'sage');

describe('live store: SAGE orchestrator log', () => {
  it('a logged answer turns the pending gate answered, with no change in the state dir', async () => {
    expect(sageRun()?.gates[0]).toMatchObject({ id: 'hitl', state: 'pending', grantable: true });
    const stamp = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
    // The log folder does not exist yet: it is watched all the same.
    writeFile(
      path.join(box.project('epic-app'), '.sage', 'logs', 'orchestrator-v2.log'),
      `[${stamp}] [INFO] Resume signal detected!\n[${stamp}] [INFO] Resume status: APPROVED\n`,
    );
    const gate = await waitFor(() => (sageRun()?.gates[0]?.state === 'granted' ? sageRun()?.gates[0] : null), 5000, {
      what: 'the gate to be answered',
    });
    expect(gate).toMatchObject({ grantable: false });
    expect(sageRun()?.status).not.toBe('waiting');
  });
});
