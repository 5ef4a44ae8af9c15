/**
 * Following a pane's output through a tmux control client, as the preview moves from pane to pane:
 * tmux takes its whole server down when a control client is told of news, or ends, while it is being
 * identified, so clients that come and go quickly must leave the server and its panes standing.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { followPaneOutput } from '../../src/tmux/pane-output.js';
import { followedTmux } from '../helpers/followed-tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const PRINTER = `sh -c 'while :; do echo line; sleep 0.05; done'`;
/** The pauses between two moves of the preview, in turn: none (a key held down) to a slow hand. */
const GAPS_MS = [0, 1, 3, 8, 20, 40];
const MOVES = 120;

describe('following panes through control clients', () => {
  const t = followedTmux();

  it('moves from pane to pane quickly, captures as it goes, and the server and its panes stay', async () => {
    const panes = [
      await t.tmux.newSession('a', os.tmpdir(), PRINTER),
      await t.tmux.newSession('b', os.tmpdir(), PRINTER),
    ];
    let captured = 0;
    for (let i = 0; i < MOVES; i++) {
      t.follower?.stop();
      const f = followPaneOutput(
        t.tmux.client,
        panes[i % 2]!,
        () => void f.capture?.(50).then((c) => c?.ok && captured++),
        () => {},
      );
      t.follower = f;
      void f.capture?.(50).then((c) => c?.ok && captured++);
      // The pause is the operator's hand, not a wait for something: the moves must come fast.
      await new Promise((r) => setTimeout(r, GAPS_MS[i % GAPS_MS.length]));
      expect(await t.tmux.client.listPanesOrNull(), `the server after ${i + 1} moves`).not.toBeNull();
    }
    const last = t.follower!;
    const cap = await waitFor(async () => (await last.capture!(50))?.ok === true, 10_000, {
      what: 'a capture through the last control client',
    });
    expect(cap).toBe(true);
    expect(captured).toBeGreaterThan(0);
    const live = await t.tmux.client.listPanesOrNull();
    expect(live?.map((p) => p.paneId).sort()).toEqual(expect.arrayContaining(panes));
    // Stopped, every client leaves: only the tmux server remains.
    last.stop();
    t.follower = null;
    await waitFor(
      async () => (await t.tmux.client.run(['list-clients', '-F', '#{client_pid}'])).trim() === '',
      15_000,
      {
        what: 'every control client gone',
      },
    );
  }, 60_000);
});
