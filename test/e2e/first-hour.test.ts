/**
 * A new operator's first keys, through the real terminal path (`tower demo` in a pane of a private
 * tmux server) at 80×24, 120×40 and 250×60: every key answers at once (`1` with no prompt, `E` with
 * nothing ended, `s` under --readonly before a line is typed, `R` checking the name as it is left),
 * actions default to the member in view (`s` names the member under the team cursor), and attach
 * says how to come back (the server's own prefix) as it arrives, then comes back on that key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../scripts/render/stage.js';
import { killPrivateServer, openStage, waitForScreen } from '../../scripts/render/stage.js';
import { shellQuote } from '../../src/demo/panes.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { removeAfterFile, removeTree } from '../helpers/leftovers.js';
import { killServersAndWait, uniqueSocketName } from '../helpers/tmux.js';
import { buildTowerFromSource, focusPane, press, selectRun, teamRows } from './demo-operator.js';

let work: string;
let tower: string;
const servers: TmuxClient[] = [];
let demos = 0;

/** `tower demo ARGS` in a terminal of `cols`×`rows`; resolves once the runs list shows the dotagent run. */
async function openDemo(cols: number, rows: number, args: string[] = []): Promise<{ stage: Stage; dotagent: string }> {
  const socket = uniqueSocketName('tower-demo');
  servers.push(new TmuxClient({ name: socket }));
  const home = path.join(work, `home-${demos}`);
  fs.mkdirSync(path.join(home, 'config'), { recursive: true });
  const argv = [process.execPath, tower, 'demo', '-L', socket, '--dir', path.join(work, `demo-${++demos}`), ...args];
  const stage = await openStage({
    socketName: uniqueSocketName(),
    command: `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX -u NO_COLOR ${argv.map(shellQuote).join(' ')}; echo TOWER-EXITED $?; exec sleep 3600`,
    cols,
    rows,
    cwd: work,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state') },
  });
  servers.push(stage.tmux);
  const screen = await waitForScreen(stage, /dotagent\s+wf-/, { what: 'the runs list', timeoutMs: 30_000 });
  return { stage, dotagent: /dotagent\s+(wf-\S+)/.exec(screen)?.[1] ?? 'wf-' };
}

/** Flattens the screen's box borders and line ends so a wrapped sentence can be looked for. */
const flat = (screen: string): string => screen.replace(/[│┃║]/g, ' ').replace(/\s+/g, ' ');

beforeAll(async () => {
  work = fs.realpathSync(removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-e2e-first-hour-'))));
  tower = await buildTowerFromSource(path.join(work, 'build'));
}, 60_000);

afterAll(async () => {
  await killServersAndWait(servers, killPrivateServer);
  if (work) removeTree(work);
}, 30_000);

describe.each([
  [80, 24],
  [120, 40],
  [250, 60],
])('at %i×%i every key answers at once', (cols, rows) => {
  it('1 with no prompt, E with nothing ended, s under --readonly, each says why', async () => {
    const { stage, dotagent } = await openDemo(cols, rows, ['--readonly']);
    await selectRun(stage, dotagent);
    await press(stage, 'answer-1');
    await waitForScreen(stage, (s) => flat(s).includes('shows a permission prompt or question now'), {
      what: 'the answer refusal',
    });
    await press(stage, 'cancel');
    await waitForScreen(stage, (s) => !s.includes('Refused'), { what: 'the refusal to close' });
    await press(stage, 'ended');
    await waitForScreen(stage, (s) => flat(s).includes('no team has ended'), { what: 'the ended-teams answer' });
    await press(stage, 'cancel');
    await waitForScreen(stage, (s) => !s.includes('Refused'), { what: 'the refusal to close' });
    await selectRun(stage, 'checkout-flow');
    await press(stage, 'send');
    const said = await waitForScreen(stage, (s) => flat(s).includes('read-only mode'), { what: 'the read-only send' });
    // Refused before a line could be typed: no prompt for one opened.
    expect(said).not.toContain('Type a line to');
  }, 90_000);
});

describe('at 120×40, actions go to the member in view', () => {
  it('s types to the member under the team cursor; R checks the name as it is left; attach says how to come back', async () => {
    const { stage } = await openDemo(120, 40);
    await selectRun(stage, 'checkout-flow');
    const focused = await focusPane(stage, 'Team');
    // The member under the team cursor, and its pane, as the team pane shows them.
    const row = teamRows(focused).find((r) => /^.>/.test(r)) ?? '';
    const [, name, pane] = /^.>[ ★]+(\S+)\s+(%\d+)/.exec(row) ?? [];
    expect(pane, focused).toBeDefined();
    await press(stage, 'send');
    await waitForScreen(stage, (s) => flat(s).includes(`Type a line to ${name} ${pane} of tina:checkout-flow`), {
      what: 'the send prompt for the member in view',
    });
    await press(stage, 'dismiss');
    await waitForScreen(stage, (s) => !s.includes('Type a line to'), { what: 'the send prompt to close' });
    await press(stage, 'back');
    // Each key lands before the next: a j pressed while the team pane still has focus would move its cursor.
    await waitForScreen(stage, /\[> Runs/, { what: 'the runs list to have focus' });
    await selectRun(stage, 'sheets-clone');
    await press(stage, 'request');
    await waitForScreen(stage, /Open a named checkpoint on harness:sheets-clone/, { what: 'the request prompt' });
    await stage.tmux.sendText(stage.paneId, 'no good!');
    await press(stage, 'next-field');
    const checked = await waitForScreen(stage, (s) => flat(s).includes('bad checkpoint name "no good!"'), {
      what: 'the name refused as it is left',
    });
    // What was typed is kept, and the cursor stays on the name.
    expect(checked).toMatch(/> name: +no good!▏/);
    await press(stage, 'dismiss');
    await waitForScreen(stage, (s) => !s.includes('Open a named checkpoint'), { what: 'the request prompt to close' });
    await selectRun(stage, 'checkout-flow');
    await press(stage, 'attach');
    await waitForScreen(stage, 'detach with C-b d (your prefix) to come back to tower', {
      what: 'the detach hint on arrival',
    });
    await stage.tmux.sendKey(stage.paneId, 'C-b');
    await stage.tmux.sendText(stage.paneId, 'd');
    await waitForScreen(stage, /back from %\d/, { what: 'tower back after the detach' });

    // Enter on an activity line opens it in full (it attaches nowhere).
    await focusPane(stage, 'Activity');
    await stage.tmux.sendKey(stage.paneId, 'Enter');
    const read = await waitForScreen(stage, /attach done/, { what: 'the activity line opened' });
    expect(flat(read)).toMatch(/done attach · tina:checkout-flow/);
    expect(read).not.toContain('detach with');
  }, 120_000);
});
