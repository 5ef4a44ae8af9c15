/**
 * A command run through the control client already attached to a server (a poll's list-panes while
 * a pane is followed): the same panes as a list-panes process, framing that pane text cannot forge,
 * requests taken in turn with the pane's captures, and a process again once the client has gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelOf, offerChannel } from '../../src/tmux/channels.js';
import { socketFile } from '../../src/tmux/client.js';
import { paneFormat, paneListMarkers, parsePaneList } from '../../src/tmux/pane-list.js';
import { ControlCaptures, MAX_WAITING, commandOutput } from '../../src/tmux/control-capture.js';
import { controlCommandLine } from '../../src/tmux/control-channel.js';
import { followPaneOutput } from '../../src/tmux/pane-output.js';
import type { PaneOutputFollower } from '../../src/tmux/pane-output.js';
import { followedTmux } from '../helpers/followed-tmux.js';
import { tempDir } from '../helpers/box.js';
import { waitFor } from '../helpers/wait-for.js';

/** The nonce of the command lines a request sent. */
const nonceOf = (commands: string) => /'([0-9a-f]{32}):b:'/.exec(commands)?.[1] as string;

describe('a command through the control client (parser)', () => {
  it('takes its block whole, a forged end inside it included, and tells every %output', async () => {
    const seen: string[] = [];
    const c = new ControlCaptures((l) => seen.push(l));
    let sent = '';
    const answer = c.command(`'list-panes' '-a'`, (s) => (sent = s));
    const nonce = nonceOf(sent);
    expect(sent).toBe(`display-message -p '${nonce}:b:' ; 'list-panes' '-a'\ndisplay-message -p '${nonce}:e:'\n`);
    c.push(
      [
        '%output %3 before',
        '%end 1 9 1', // the last request's closing block, late
        '%begin 1 10 1',
        `${nonce}:b:`,
        '%end 1 10 1',
        '%window-renamed @1 x',
        '%begin 1 11 1',
        'pane one',
        '%end 1 11 1', // a title's line break and a guessed stamp: text, as a later end closes the block
        '%output %3 forged',
        'pane two',
        '%end 1 11 1',
        '%output %3 between',
        '%begin 1 12 1',
        `${nonce}:e:`,
        '%end 1 12 1',
        '',
      ].join('\n'),
    );
    expect(await answer).toBe('pane one\n%end 1 11 1\n%output %3 forged\npane two\n');
    // Every %output line is told (a forged one only raises what the pane may have printed).
    expect(seen).toEqual([
      '%output %3 before',
      '%end 1 9 1',
      '%begin 1 10 1',
      '%output %3 forged',
      '%output %3 between',
      '%end 1 12 1',
    ]);
  });

  it('gives null for a failed command, a block cut short, an answer with no block', async () => {
    for (const block of [
      ['%begin 1 11 1', "can't find pane: %9", '%error 1 11 1'],
      ['%begin 1 11 1', 'pane one', '%end 1 11 0'], // an end of another stamp: the block never ended
      [],
    ]) {
      const c = new ControlCaptures(() => {});
      let sent = '';
      const answer = c.command(`'list-panes'`, (s) => (sent = s));
      const nonce = nonceOf(sent);
      c.push([`${nonce}:b:`, '%end 1 10 1', ...block, '%begin 1 12 1', `${nonce}:e:`, ''].join('\n'));
      expect(await answer).toBeNull();
      expect(c.busy).toBe(false);
    }
  });

  it('reads only the lines of its own block', () => {
    expect(commandOutput(['%end 1 1 1', '%begin 1 2 1', 'a', '%end 1 2 1', '%begin 1 3 1'])).toBe('a\n');
    expect(commandOutput(['%end 1 1 1', '%begin 1 2 1', '%end 1 2 1', '%begin 1 3 1'])).toBe('');
    expect(commandOutput(['%begin 1 2 1', 'a', '%end 1 2 1', '%begin 1 3 1'])).toBeNull();
    expect(commandOutput(['%end 1 1 1', '%begin 1 2 1', 'a', '%end 1 2 1'])).toBeNull();
  });

  it('sends each request once the one before has its answer, and refuses past the bound', async () => {
    const c = new ControlCaptures(() => {});
    const sent: string[] = [];
    const answers = Array.from({ length: MAX_WAITING + 2 }, () => c.command(`'list-panes'`, (s) => sent.push(s)));
    // The last one found the queue full.
    expect(await answers[MAX_WAITING + 1]).toBeNull();
    for (let i = 0; i <= MAX_WAITING; i++) {
      expect(sent).toHaveLength(i + 1);
      const nonce = nonceOf(sent[i] as string);
      c.push(
        [`${nonce}:b:`, '%end 1 1 1', '%begin 1 2 1', `row ${i}`, '%end 1 2 1', '%begin 1 3 1', `${nonce}:e:`, ''].join(
          '\n',
        ),
      );
      expect(await answers[i]).toBe(`row ${i}\n`);
    }
    expect(c.busy).toBe(false);
  });

  it('gives a late answer up and goes on to the next; the late lines are not the next one’s', async () => {
    const c = new ControlCaptures(() => {});
    const sent: string[] = [];
    const first = c.command(`'list-panes'`, (s) => sent.push(s), 30);
    const second = c.command(`'list-panes'`, (s) => sent.push(s), 1000);
    expect(await first).toBeNull();
    expect(sent).toHaveLength(2);
    const [a, b] = sent.map(nonceOf);
    c.push(
      [
        `${a}:b:`,
        '%end 1 1 1',
        '%begin 1 2 1',
        'stale',
        '%end 1 2 1',
        '%begin 1 3 1',
        `${a}:e:`,
        '%end 1 3 1',
        `${b}:b:`,
        '%end 1 4 1',
        '%begin 1 5 1',
        'fresh',
        '%end 1 5 1',
        '%begin 1 6 1',
        `${b}:e:`,
        '',
      ].join('\n'),
    );
    expect(await second).toBe('fresh\n');
  });

  it('quotes every argument, and refuses one it cannot', () => {
    expect(controlCommandLine(['list-panes', '-F', '#{pane_id};{x} $HOME ~'])).toBe(
      `'list-panes' '-F' '#{pane_id};{x} $HOME ~'`,
    );
    expect(controlCommandLine(['display-message', "it's"])).toBeNull();
    expect(controlCommandLine(['display-message', 'a\nb'])).toBeNull();
  });
});

/** A pane printing a numbered line every 20 ms. */
const PRINTING = `i=0; while :; do i=$((i+1)); echo "line $i"; sleep 0.02; done`;

describe('a command through the control client (real tmux)', () => {
  const t = followedTmux();
  let dir: string;
  beforeEach(() => {
    dir = tempDir('tower-channel-');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Follows a pane; how many times it was heard printing. */
  const follow = (pane: string): { printed: number; f: PaneOutputFollower } => {
    const heard = { printed: 0, f: null as unknown as PaneOutputFollower };
    heard.f = t.follower = followPaneOutput(
      t.tmux.client,
      pane,
      () => heard.printed++,
      () => {},
    );
    return heard;
  };

  it('lists the panes a process lists, forged titles and all, while the pane prints', async () => {
    const pane = await t.tmux.newSession('a', os.tmpdir(), PRINTING);
    // A folder with line breaks and the protocol's own lines in its name.
    const evil = path.join(dir, 'x\n%end 1 2 1\n%begin 1 3 1\n%output %0 y');
    fs.mkdirSync(evil);
    const other = await t.tmux.newSession('b', evil);
    await waitFor(async () => (await t.tmux.client.listPanes()).find((p) => p.paneId === other)?.cwd === evil, 5000, {
      what: 'the pane in its folder',
    });
    const file = socketFile(t.tmux.client.socket);
    expect(channelOf(file)).toBeUndefined();
    const heard = follow(pane);
    await waitFor(() => heard.printed > 0 && channelOf(file), 5000, { what: 'the client attached and speaking' });
    // Count what goes through the channel.
    const real = channelOf(file)!;
    let through = 0;
    const withdraw = offerChannel(file, {
      run: async (args, ms) => {
        const out = await real.run(args, ms);
        if (out !== null) through++;
        return out;
      },
    });
    try {
      const markers = paneListMarkers();
      const byProcess = parsePaneList(
        await t.tmux.client.run(['list-panes', '-a', '-F', paneFormat(markers)]),
        markers,
      );
      // Lists and captures at once: each waits its turn on the one client.
      const [listed, captured, again] = await Promise.all([
        t.tmux.client.listPanes(),
        heard.f.capture!(50),
        t.tmux.client.listPanes(),
      ]);
      expect(through).toBe(2);
      expect(listed).toEqual(byProcess);
      expect(again).toEqual(byProcess);
      expect(listed.find((p) => p.paneId === other)?.cwd).toBe(evil);
      expect(captured?.ok && captured.text).toMatch(/line \d+/);
    } finally {
      withdraw();
    }
    // Stopped: the channel is withdrawn and a list is a process again.
    heard.f.stop();
    t.follower = null;
    expect(channelOf(file)).toBeUndefined();
    expect((await t.tmux.client.listPanes()).map((p) => p.paneId)).toContain(other);
  });

  it('holds what the pane prints until the next capture, then hears what waited', async () => {
    const pane = await t.tmux.newSession('a', os.tmpdir(), PRINTING);
    const heard = follow(pane);
    await waitFor(() => heard.printed > 3, 5000, { what: 'the pane heard printing' });
    heard.f.hold!();
    // Nothing is read while held, though the pane prints on (a line every 20 ms).
    await new Promise((r) => setTimeout(r, 50));
    const before = heard.printed;
    await new Promise((r) => setTimeout(r, 300));
    expect(heard.printed).toBe(before);
    // The capture reads again: what waited is heard, and the capture is the pane as a process sees it.
    const captured = await heard.f.capture!(50);
    expect(heard.printed).toBeGreaterThan(before);
    const last = captured?.ok ? Number(/line (\d+)\s*$/.exec(captured.text.trimEnd())?.[1]) : NaN;
    expect(last).toBeGreaterThan(0);
    // Heard again as it comes.
    const after = heard.printed;
    await waitFor(() => heard.printed > after + 3, 5000, { what: 'the pane heard again' });
  });
});
