/**
 * The previewed pane streams, on a real tmux server: a line printed in the previewed pane is
 * captured without a poll tick, through one read-only control client; another pane printing is
 * not captured; moving the preview away ends the client and the captures.
 */
import os from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Member, Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { PaneWatch } from '../../src/store/captures.js';
import { LocalPaneLooks, PreviewStream } from '../../src/store/preview-stream.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let tmux: TmuxFixture;
let watch: LocalPaneLooks;

beforeEach(async () => {
  tmux = await startTmux();
  watch = new LocalPaneLooks(new PaneWatch(tmux.client));
});

afterEach(async () => {
  watch.stream.stop();
  await tmux.kill();
});

function teamOf(...panes: string[]): { run: Run; members: Member[] } {
  const run = emptyRun('claude-team', 'crew', null, null);
  run.members = panes.map((paneId, i) => ({
    name: `m${i}`,
    role: 'r',
    model: 'm',
    paneId,
    state: 'alive',
    lead: i === 0,
  }));
  return { run, members: run.members };
}

const say = (pane: string, text: string) => tmux.client.run(['send-keys', '-t', pane, `echo ${text}`, 'Enter']);
/** Control clients attached to the server now. */
const clients = async () =>
  (await tmux.client.run(['list-clients', '-F', '#{client_control_mode}'])).split('\n').filter((l) => l === '1').length;

describe('the previewed pane streams', () => {
  it('captures what the previewed pane prints as it prints, not what another pane prints, and stops when the preview moves', async () => {
    const a = await tmux.newSession('a', os.tmpdir(), 'sh');
    const b = await tmux.newSession('b', os.tmpdir(), 'sh');
    const { run, members } = teamOf(a, b);
    watch.preview(run, members[0]!);
    await waitFor(() => watch.lookOf(members[0]!), 5000, { what: 'the first capture of the previewed pane' });
    await waitFor(clients, 5000, { what: 'the control client' });

    for (let i = 1; i <= 3; i++) {
      await say(a, `MARK-A-${i}`);
      await waitFor(() => watch.lookOf(members[0]!)?.text.includes(`\nMARK-A-${i}`), 3000, {
        what: `MARK-A-${i} in the capture`,
      });
    }
    await say(b, 'MARK-B');
    await waitFor(async () => (await tmux.client.capturePane(b)).includes('\nMARK-B'), 3000, { what: 'pane b' });
    expect(watch.lookOf(members[1]!)).toBeUndefined();

    // The preview moves to no pane: the control client goes, and the pane is no longer captured.
    watch.preview(run, null);
    expect(watch.previewed).toBeNull();
    await waitFor(async () => (await clients()) === 0, 5000, { what: 'the control client to end' });
    await say(a, 'MARK-A-LATE');
    await waitFor(async () => (await tmux.client.capturePane(a)).includes('\nMARK-A-LATE'), 3000, { what: 'pane a' });
    expect(watch.lookOf(members[0]!)?.text).not.toContain('MARK-A-LATE');
  });

  it('does not stream a pane of another box, or a pane that is not alive', async () => {
    const a = await tmux.newSession('a', os.tmpdir(), 'sh');
    const { run, members } = teamOf(a);
    watch.preview({ ...run, host: 'far' }, members[0]!);
    expect(watch.previewed).toBeNull();
    watch.preview(run, { ...members[0]!, state: 'dead' });
    expect(watch.previewed).toBeNull();
    watch.preview(run, members[0]!);
    expect(watch.previewed).toBe(a);
  });

  it('a pane whose control client cannot start is tried again a few times, then captured on a timer while previewed', async () => {
    let starts = 0;
    const captured: string[] = [];
    const stream = new PreviewStream({
      clientFor: () => tmux.client,
      paneIdOf: (key) => key,
      capture: async (key) => {
        captured.push(key);
      },
      follow: (_client, _pane, _onOutput, onEnd) => {
        starts++;
        queueMicrotask(() => onEnd('tmux too old'));
        return { stop: () => {} };
      },
      retryMs: [1, 1],
      unfollowedMs: 20,
    });
    stream.follow('%7');
    await waitFor(() => captured.length >= 5, 3000, { what: 'captures on the timer' });
    expect(starts).toBe(3);
    stream.follow(null);
    const after = captured.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(captured.length).toBeLessThanOrEqual(after + 1);
  });
});
