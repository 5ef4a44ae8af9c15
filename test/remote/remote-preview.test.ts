/**
 * A live preview of a pane on another box, over a real loopback sshd: the box's tower streams the
 * previewed pane (one control client on its tmux server, one pane at a time) and this tower shows
 * what it prints; moving the preview away ends it there. A far side that floods the preview or sends
 * escape sequences through it is cut to the cap and cleaned.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostConfig } from '../../src/config/config.js';
import type { Run } from '../../src/model/model.js';
import { BoxPaneLooks } from '../../src/remote/box-looks.js';
import { CompositeStore } from '../../src/remote/composite-store.js';
import { PREVIEW_BYTES_PER_SEC } from '../../src/remote/protocol.js';
import type { RemoteBox } from '../helpers/remote-box.js';
import { agentPane, startFleet, tmuxOn, writeCrew } from '../helpers/ssh-fleet.js';
import type { Fleet } from '../helpers/ssh-fleet.js';
import { waitFor } from '../helpers/wait-for.js';

const FAKE = path.join(import.meta.dirname, '..', 'helpers', 'fake-far-side.mjs');
/** Any control character but newline, or an escape that is not a colour (SGR). */
const RAW = /[\u0000-\u0009\u000b-\u001a\u001c-\u001f\u007f-\u009f]|\u001b(?!\[[0-9;:]*m)/;

let fleet: Fleet;
let box: RemoteBox;
let panes: string[];
const stores: CompositeStore[] = [];
const looks: BoxPaneLooks[] = [];

const tmuxOnBox = (...args: string[]) => tmuxOn(box.socketName, ...args);
const paneText = (pane: string) => tmuxOnBox('capture-pane', '-p', '-t', pane);
/** Control clients on the box's tmux server now. */
const controlClients = async () =>
  (await tmuxOnBox('list-clients', '-F', '#{client_control_mode}')).split('\n').filter((l) => l === '1').length;

beforeAll(async () => {
  fleet = await startFleet('tower-remote-preview', { p: 'pier' }, ['far']);
  box = fleet.boxes.p!;
  panes = [await agentPane(box.socketName, box.root, 'sh')];
  panes.push(
    (await tmuxOnBox('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'agents', '-c', box.root, 'sh')).trim(),
  );
  writeCrew(
    box.claudeDir,
    box.root,
    panes.map((pane, i) => ({ name: i === 0 ? 'lead' : `worker-${i}`, pane })),
  );
}, 60_000);

afterEach(async () => {
  for (const l of looks.splice(0)) l.dispose();
  await Promise.all(stores.splice(0).map((s) => s.stop()));
});

afterAll(async () => {
  await fleet?.stop();
});

async function open(host: HostConfig): Promise<{ store: CompositeStore; looks: BoxPaneLooks }> {
  const store = new CompositeStore({
    hosts: [host],
    local: null,
    timeoutSec: 10,
    reconnect: false,
    reader: '/nonexistent/tower-reader.js',
  });
  stores.push(store);
  const l = new BoxPaneLooks(null, store);
  looks.push(l);
  await store.start();
  return { store, looks: l };
}

const say = (pane: string, text: string) => tmuxOnBox('send-keys', '-t', pane, `echo ${text}`, 'Enter');

describe('a live preview of a pane on another box', () => {
  it('streams what the previewed agent prints, one pane per box, and stops when the preview moves', async () => {
    const { store, looks: l } = await open(fleet.host(box));
    const run = await waitFor(() => store.getSnapshot().runs.find((r) => r.id === 'p/claude-team:crew'), 10_000, {
      what: 'the run of box p',
    });
    const [lead, worker] = run.members;
    l.preview(run, lead!);
    await waitFor(() => l.lookOf(lead!, run), 10_000, { what: 'the first lines of the lead pane' });
    for (let i = 1; i <= 3; i++) {
      await say(panes[0]!, `MARK-${i}`);
      await waitFor(() => l.lookOf(lead!, run)?.text.includes(`\nMARK-${i}`), 5000, {
        what: `MARK-${i} from box p`,
      });
    }
    expect(await controlClients()).toBe(1);

    // The preview moves to the worker: the box streams that pane instead, never two at once.
    l.preview(run, worker!);
    expect(l.lookOf(lead!, run)).toBeUndefined();
    await say(panes[1]!, 'WORKER-1');
    await waitFor(() => l.lookOf(worker!, run)?.text.includes('\nWORKER-1'), 5000, { what: 'the worker pane' });
    expect(await controlClients()).toBe(1);

    // Away from the box altogether: its control client ends and nothing more comes.
    l.preview(null, null);
    await waitFor(async () => (await controlClients()) === 0, 5000, { what: 'the box to stop streaming' });
    await say(panes[1]!, 'WORKER-LATE');
    await waitFor(async () => (await paneText(panes[1]!)).includes('\nWORKER-LATE'), 5000, { what: 'the late line' });
    expect(store.link('p')?.pane).toBeNull();
    expect(l.lookOf(worker!, run)).toBeUndefined();
  });

  it('cuts a far side that floods the preview to the cap, says so, and lets no escape sequence through', async () => {
    const log = path.join(fleet.dir, `flood-${Date.now()}.log`);
    fs.writeFileSync(log, '');
    const { store, looks: l } = await open({
      name: 'far',
      destination: 'far',
      sshArgs: ['-F', fleet.lab.sshConfig],
      tower: `${process.execPath} ${FAKE} pane-flood ${log}`,
    });
    const link = store.link('far')!;
    const run = store.getSnapshot().runs.find((r) => r.id === 'far/harness:good') as Run;
    let updates = 0;
    const off = link.subscribePane(() => updates++);
    l.preview(run, run.members[0]!);
    await waitFor(() => link.problems.some((p) => p.includes('it was cut to that')), 10_000, {
      what: 'the flood to be cut',
    });
    off();
    // About a second's worth was taken (each message ~1 KB), not the 3,000 sent.
    expect(updates).toBeGreaterThan(0);
    expect(updates).toBeLessThanOrEqual(Math.ceil(PREVIEW_BYTES_PER_SEC / 1000) * 3);
    const text = l.lookOf(run.members[0]!, run)?.text ?? '';
    expect(text).toMatch(/^line \d+ \u001b\[32mgreen\u001b\[0m /);
    expect(text).not.toMatch(RAW);
    expect(link.problems.filter((p) => p.includes('cut to that'))).toHaveLength(1);
  });
});
