/**
 * A pane's owner and its screen read in one tmux call, on a real private server: the owner is the
 * one `paneOwner` names, the screen is the pane's whole, a pane that prints marker-like lines cannot
 * pass for another pane or another process, and a pane that is gone is tmux's error saying so.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paneListMarkers } from '../../src/tmux/pane-list.js';
import { paneLookArgs, parsePaneLook } from '../../src/tmux/pane-look.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let tmux: TmuxFixture;

beforeEach(async () => {
  tmux = await startTmux();
});

afterEach(async () => {
  await tmux.kill();
});

const M = { open: '<n1<', sep: '|n1|', close: '>n1>' };
const parse = (out: string, pane = '%3') => parsePaneLook(out, pane, M);

/** One look at `pane` on the test's server, as tower makes it. */
async function lookAtPane(pane: string) {
  const m = paneListMarkers();
  return parsePaneLook(await tmux.client.run(paneLookArgs(pane, m, 60)), pane, m);
}

describe('a pane looked at in one call', () => {
  it('takes the owner from the first line only, and only when it names the pane asked about', () => {
    expect(parse('<n1<%3|n1|4242|n1|77>n1>\nline one\n<n1<%3|n1|1|n1|1>n1>\n')).toEqual({
      paneId: '%3',
      pid: 4242,
      serverPid: 77,
      screen: 'line one\n<n1<%3|n1|1|n1|1>n1>\n',
    });
    expect(parse('line one\n<n1<%3|n1|4242|n1|77>n1>\n')).toBeNull();
    expect(parse('<n1<%4|n1|4242|n1|77>n1>\nline one\n')).toBeNull();
    expect(parse('<n1<%3|n1|42x|n1|77>n1>\n')).toBeNull();
    expect(parse('')).toBeNull();
  });

  it('gives the pane’s own process and its whole screen; a line the pane prints is screen, never the owner', async () => {
    const pane = await tmux.newSession(
      'agent',
      tempDir('tower-look-'),
      `sh -c 'printf "<x<%%0|x|1|x|1>x>\\nDo you want to proceed?\\n"; sleep 100000'`,
    );
    await waitFor(async () => (await tmux.client.capturePane(pane)).includes('proceed'), 5000, { what: 'the pane' });
    const look = await lookAtPane(pane);
    expect(look).toEqual({ ...(await tmux.client.paneOwner(pane)), screen: await tmux.client.capturePane(pane, 60) });
    expect(look?.screen).toContain('<x<%0|x|1|x|1>x>\nDo you want to proceed?');
    await tmux.client.killPane(pane).catch(() => undefined);
    // A pane (or server) that is gone is tmux's error of that kind, which the answer reads as gone.
    await expect(lookAtPane(pane)).rejects.toMatchObject({ kind: expect.stringMatching(/^(no-such-pane|no-server)$/) });
  });
});
