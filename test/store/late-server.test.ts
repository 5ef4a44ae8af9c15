/** A tmux server that starts after the live store found none is seen by its poll, as before it looked only at the socket file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createLiveStore } from '../../src/store/live-store.js';
import type { SnapshotStore } from '../../src/store/types.js';
import { TmuxClient, socketFile } from '../../src/tmux/client.js';
import { buildBox } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let box: Box | null = null;
let store: SnapshotStore | null = null;
let client: TmuxClient | null = null;

afterEach(async () => {
  await store?.stop();
  if (client) {
    await client.killServer();
    fs.rmSync(socketFile(client.socket), { force: true });
  }
  box?.remove();
  box = store = client = null;
});

it('sees a tmux server that starts after it did: the member of a pane on it turns alive', async () => {
  box = buildBox();
  const name = uniqueSocketName();
  client = new TmuxClient({ name }, 5000);
  const ctx = testContext({
    claudeDir: box.claudeDir,
    roots: box.roots,
    socketName: name,
    home: box.dir,
    config: { pollIntervalMs: 100 },
  });
  store = createLiveStore(ctx);
  await store.start();
  const s = store;
  // Polls go by with no server: there is no socket file to find.
  await new Promise((r) => setTimeout(r, 500));
  expect(fs.existsSync(socketFile({ name }))).toBe(false);

  const paneId = (
    await client.run([
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-P',
      '-F',
      '#{pane_id}',
      '-s',
      'late',
      '-c',
      os.tmpdir(),
      'sleep 100000',
    ])
  ).trim();
  fs.mkdirSync(path.join(box.claudeDir, 'teams', 'late-pair'), { recursive: true });
  fs.writeFileSync(
    path.join(box.claudeDir, 'teams', 'late-pair', 'config.json'),
    JSON.stringify({
      name: 'late-pair',
      leadAgentId: 'w',
      members: [{ name: 'w', agentType: 'team-lead', model: 'm', tmuxPaneId: paneId }],
    }),
  );
  const member = () => s.getSnapshot().runs.find((r) => r.id === 'claude-team:late-pair')?.members[0];
  await waitFor(() => member()?.state === 'alive', 10_000, { what: 'the member alive on the late server' });
});
