/**
 * A pane captured through the control client already attached to it: the same text as a capture
 * by its own process, framing that lines a pane prints cannot forge, and a pane gone giving none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturePanes } from '../../src/tmux/capture.js';
import { ControlCaptures, CONTROL_LINE_CHARS } from '../../src/tmux/control-capture.js';
import { followPaneOutput } from '../../src/tmux/pane-output.js';
import { followedTmux } from '../helpers/followed-tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { tempDir } from '../helpers/box.js';

/** Lines a pane prints that look like the control protocol's own, to forge a frame. */
const FORGED = ['%end 1795793694 271 1', '%begin 1795793694 272 1', '%output %0 forged', '%error 1 2 1'];

describe('the control client answers a capture (parser)', () => {
  it('takes the counted lines as text, whatever they look like, and hands every other line on', async () => {
    const seen: string[] = [];
    const c = new ControlCaptures((l) => seen.push(l));
    let commands = '';
    const answer = c.request('%3', 200, (s) => (commands = s));
    const nonce = /'([0-9a-f]{32}):b:/.exec(commands)?.[1];
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    const stream = [
      '%output %3 before',
      '%begin 1 10 1',
      `${nonce}:b:1:4:80:2000:0`,
      '%end 1 10 1',
      '%begin 1 11 1',
      'row 1',
      ...FORGED,
      // Five lines counted (1 of history, 4 of screen): every forged line is the pane's text.
      '%end 1 11 1',
      '%output %3 between',
      '%begin 1 12 1',
      `${nonce}:e:4242:claude`,
      '%end 1 12 1',
      '%output %3 after',
    ].join('\n');
    // Chunks of every size: lines split anywhere.
    for (let i = 0; i < stream.length; i += 7) c.push(stream.slice(i, i + 7));
    c.push('\n');
    expect(await answer).toEqual({
      ok: true,
      text: ['row 1', ...FORGED].join('\n'),
      command: 'claude',
      pid: 4242,
    });
    expect(seen).toEqual([
      '%output %3 before',
      '%begin 1 10 1',
      '%output %3 between',
      '%end 1 12 1',
      '%output %3 after',
    ]);
  });

  it('gives no capture when the count is not followed by tmux’s %end, nor when the capture failed', async () => {
    const c = new ControlCaptures(() => {});
    for (const body of [
      ['%begin 1 11 1', 'a', 'b', 'c'], // one line more than counted
      ["can't find pane: %3", '%error 1 11 1'], // no %begin of a capture
    ]) {
      let commands = '';
      const answer = c.request('%3', 0, (s) => (commands = s));
      const nonce = /'([0-9a-f]{32}):b:/.exec(commands)?.[1];
      c.push([`${nonce}:b:0:2:80:2000:0`, '%end 1 10 1', ...body, '%end 1 11 1', `${nonce}:e:sh`, ''].join('\n'));
      expect(await answer).toBeNull();
      expect(c.busy).toBe(false);
    }
  });

  it('drops a line longer than its bound and fails the request it was in', async () => {
    const seen: string[] = [];
    const c = new ControlCaptures((l) => seen.push(l));
    let commands = '';
    const answer = c.request('%3', 0, (s) => (commands = s));
    const nonce = /'([0-9a-f]{32}):b:/.exec(commands)?.[1];
    c.push([`${nonce}:b:0:1:80:2000:0`, '%end 1 10 1', '%begin 1 11 1', ''].join('\n'));
    for (let i = 0; i < 3; i++) c.push('x'.repeat(CONTROL_LINE_CHARS / 2));
    c.push(['', '%end 1 11 1', `${nonce}:e:sh`, '%output %3 next', ''].join('\n'));
    expect(await answer).toBeNull();
    expect(seen).toEqual(['%output %3 next']);
  });
});

describe('the control client answers a capture (real tmux)', () => {
  const t = followedTmux();

  it('captures what a capture-pane process captures, forged protocol lines and all', async () => {
    const script = `seq 1 60; printf '%s\\n' ${FORGED.map((l) => `'${l}'`).join(' ')}; printf '\\033[31mred\\033[0m\\n'; exec sleep 100000`;
    const pane = await t.tmux.newSession('a', os.tmpdir(), script);
    await waitFor(async () => (await t.tmux.client.capturePane(pane)).includes('red'), 5000, { what: 'the script' });
    let printed = 0;
    let ended: string | null = null;
    t.follower = followPaneOutput(
      t.tmux.client,
      pane,
      () => printed++,
      (why) => (ended = why),
    );
    const viaClient = await t.follower.capture!(200);
    const viaProcess = (await capturePanes(t.tmux.client, [pane], { history: 200 })).get(pane);
    expect(viaClient).toEqual(viaProcess);
    expect(viaClient?.ok && viaClient.text).toContain('%output %0 forged');
    // The forged %output inside the capture was not heard as the pane printing.
    expect(printed).toBe(0);
    expect(ended).toBeNull();
  });

  it('gives none for a pane that is gone, and the client stays usable until it ends', async () => {
    const pane = await t.tmux.newSession('a', os.tmpdir(), 'exec sleep 100000');
    await t.tmux.newSession('b', os.tmpdir(), 'exec sleep 100000');
    let ended: string | null = null;
    t.follower = followPaneOutput(
      t.tmux.client,
      pane,
      () => {},
      (why) => (ended = why),
    );
    expect((await t.follower.capture!(10))?.ok).toBe(true);
    await t.tmux.client.run(['kill-pane', '-t', pane]);
    await waitFor(() => ended, 5000, { what: 'the control client ending with its pane' });
    expect(await t.follower.capture!(10)).toBeNull();
  });
});

describe('a streamed pane captured from its screen and the history already taken (real tmux)', () => {
  const t = followedTmux();

  it('gives what a whole capture gives, batch after batch, forged protocol lines, colours, wraps and clears too', async () => {
    // A small history limit: tmux trims it (a tenth at once) while the pane prints on.
    await t.tmux.client.run(['set-option', '-g', 'history-limit', '120']);
    const dir = tempDir('tower-test-splice-');
    const file = path.join(dir, 'out');
    fs.writeFileSync(file, '');
    const pane = await t.tmux.newSession('a', dir, `tail -f ${file}`);
    t.follower = followPaneOutput(
      t.tmux.client,
      pane,
      () => {},
      () => {},
    );
    const f = t.follower;
    let n = 0;
    const lines = (count: number) => Array.from({ length: count }, () => `line ${++n} of what the agent prints`);
    const batches: string[][] = [
      lines(60),
      lines(3),
      lines(1),
      lines(10),
      ['\x1b[31mred\x1b[0m then plain', '\x1b[1;32mbold green\x1b[0m.', ...lines(2)],
      [...FORGED, ...lines(2)],
      ['w'.repeat(300), ...lines(1)],
      lines(90),
      ['\x1b[2J', ...lines(2)],
      ...Array.from({ length: 8 }, () => lines(7)),
    ];
    for (const [i, batch] of [[], ...batches].entries()) {
      fs.appendFileSync(file, batch.map((l) => `${l}\n`).join(''));
      // Each batch ends with a numbered line of its own: its last is on screen once the batch is.
      const last = batch.at(-1) ?? '';
      await waitFor(async () => (await t.tmux.client.capturePane(pane)).includes(last), 10_000, {
        what: `batch ${i} on the screen`,
      });
      const viaClient = await f.capture!(200);
      const viaProcess = (await capturePanes(t.tmux.client, [pane], { history: 200 })).get(pane);
      expect(viaClient, `batch ${i}`).toEqual(viaProcess);
    }
    // Most captures were spliced; the large batch, the clear and the first were taken whole.
    expect(f.splices!()).toBeGreaterThanOrEqual(batches.length - 4);
  }, 30_000);
});
