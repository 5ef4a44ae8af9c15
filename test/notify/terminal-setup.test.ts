import { afterEach, describe, expect, it } from 'vitest';
import { defaultNotifyConfig } from '../../src/config/notify.js';
import { prepareTerminal } from '../../src/notify/terminal-setup.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';

let tmux: TmuxFixture | null = null;
afterEach(async () => {
  await tmux?.kill();
  tmux = null;
});

describe('prepareTerminal', () => {
  it('outside tmux pushes the title on the stack and pops it on exit', async () => {
    const written: string[] = [];
    const restore = await prepareTerminal(defaultNotifyConfig(), {}, (b) => written.push(b));
    await restore();
    expect(written).toEqual(['\u001b[22;0t', '\u001b[23;0t']);
  });

  it('inside tmux turns allow-passthrough on for its pane and puts back the pane title and the option', async () => {
    tmux = await startTmux();
    const pane = await tmux.newSession('op', '/tmp');
    await tmux.client.run(['select-pane', '-t', pane, '-T', 'my shell']);
    const socket = (await tmux.client.run(['display-message', '-p', '#{socket_path}'])).trim();
    const env = { TMUX: `${socket},1,0`, TMUX_PANE: pane };
    const written: string[] = [];
    const restore = await prepareTerminal(defaultNotifyConfig(), env, (b) => written.push(b));
    const option = () =>
      tmux!.client.run(['show-options', '-p', '-t', pane, '-v', 'allow-passthrough']).then((s) => s.trim());
    expect(await option()).toBe('on');
    await restore();
    expect(await option()).toBe('');
    expect(written).toEqual(['\u001b]2;my shell\u001b\\']);
  });
});
