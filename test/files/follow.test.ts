/**
 * The line follower on a real file that never ends its line: it keeps at most MAX_LINE_BYTES of an
 * unfinished line, skips the rest to the next newline, counts it once, and reads on after it. The
 * hook events that follow it say so in one problem row, and an error in their source never stops
 * the panes' capture round.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineFollower, MAX_LINE_BYTES } from '../../src/files/follow.js';
import { PaneWatch } from '../../src/store/captures.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { HookEvents } from '../../src/store/hook-events.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/wait-for.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';

const tempDir = tempDirsPerTest('tower-follow-');
let tmux: TmuxFixture;
beforeAll(async () => {
  tmux = await startTmux();
});
afterAll(async () => {
  await tmux.kill();
});

const event = (pane: string, name: string) =>
  `${Math.floor(Date.now() / 1000)}\t${pane}\t\t{"hook_event_name":"${name}"}\n`;

describe('a line that never ends', () => {
  it('is kept to the bound, skipped to its newline and counted once; the lines after it are read', () => {
    const file = path.join(tempDir(), 'events');
    fs.writeFileSync(file, event('%1', 'Stop'));
    const f = new LineFollower(file, 256 * 1024, 1024 * 1024);
    expect(f.read()?.lines).toHaveLength(1);
    // 6 MB without a newline, appended in steps as a runaway writer would.
    const chunk = 'x'.repeat(1024 * 1024);
    let skipped = 0;
    for (let i = 0; i < 6; i++) {
      fs.appendFileSync(file, chunk);
      const r = f.read()!;
      expect(r.lines).toEqual([]);
      skipped += r.skipped;
    }
    const next = event('%2', 'UserPromptSubmit');
    fs.appendFileSync(file, `tail of the long line\n${next}`);
    const after = f.read()!;
    skipped += after.skipped;
    expect(skipped).toBe(1);
    expect(after.lines).toEqual([next.trimEnd()]);
    expect(MAX_LINE_BYTES).toBe(1024 * 1024);
  });

  it('passes 50 MB without a newline in the read that meets it: the next event is read at once', () => {
    const file = path.join(tempDir(), 'events');
    fs.writeFileSync(file, event('%1', 'Stop'));
    const f = new LineFollower(file, 256 * 1024, 4 * 1024 * 1024);
    expect(f.read()?.lines).toHaveLength(1);
    const fifty = Buffer.alloc(50 * 1024 * 1024, 'z');
    fs.appendFileSync(file, fifty);
    // The runaway line, still unfinished: nothing to hand out, and it is skipped, counted once.
    expect(f.read()).toMatchObject({ lines: [], skipped: 1 });
    const next = event('%2', 'Stop');
    fs.appendFileSync(file, `\n${next}`);
    // One read after the newline arrives: the next event, not one 4 MB step per read.
    expect(f.read()).toMatchObject({ lines: [next.trimEnd()], skipped: 0 });
    // Written in one go, line and event, they are passed in a single read as well.
    fs.appendFileSync(file, fifty);
    const last = event('%3', 'UserPromptSubmit');
    fs.appendFileSync(file, `\n${last}`);
    expect(f.read()).toMatchObject({ lines: [last.trimEnd()], skipped: 1 });
  });

  it('makes one problem row for the hook events, and the member on a real pane is still read', async () => {
    const state = path.join(tempDir(), 'tower');
    const file = path.join(state, 'hooks', 'events');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    const hooks = new HookEvents(file);
    hooks.refresh();
    fs.appendFileSync(file, `${'y'.repeat(2 * 1024 * 1024)}\n${event('%2', 'Stop')}`);
    const watch = new PaneWatch(tmux.client, Date.now, hooks);
    const pane = await tmux.newSession('agent', tempDir(), 'sh -c "echo hello; sleep 100000"');
    // The shell may not have printed yet at the first round: rounds go on until it has.
    await waitFor(
      async () => {
        await watch.round([pane], null);
        return watch.look(pane)?.text.includes('hello');
      },
      5000,
      { what: 'a capture of the pane' },
    );
    // A line naming no server speaks for tower's own server's %2.
    expect(hooks.stateOf('/nonexistent/own', '%2', Date.now(), true)).toMatchObject({ event: 'Stop' });
    const snap = new ActivityOverlay(watch).apply({ version: 1, generatedAt: '', runs: [], problems: [] });
    expect(snap.problems).toEqual([
      { file: null, message: expect.stringMatching(/1 line\(s\) longer than 1 MB skipped/) },
    ]);
    expect(watch.look(pane)?.text).toContain('hello');
  });

  it('never stops the capture round when the hook events throw', async () => {
    // A source that fails the way a read past V8's longest string did before the bound.
    class Failing extends HookEvents {
      override refresh(): boolean {
        throw new RangeError('Invalid string length');
      }
    }
    const watch = new PaneWatch(tmux.client, Date.now, new Failing(path.join(tempDir(), 'events')));
    const pane = await tmux.newSession('other', tempDir(), 'sh -c "echo still-read; sleep 100000"');
    // The shell may not have printed yet at the first round: rounds go on until it has.
    await waitFor(
      async () => {
        await watch.round([pane], null);
        return watch.look(pane)?.text.includes('still-read');
      },
      5000,
      { what: 'a capture of the pane' },
    );
    expect(watch.look(pane)?.text).toContain('still-read');
    const snap = new ActivityOverlay(watch).apply({ version: 1, generatedAt: '', runs: [], problems: [] });
    expect(snap.problems.map((p) => p.message)).toEqual(['hook events: Invalid string length']);
  });

  it('says a hook events failure on one capped line, and drops the row once they read again', async () => {
    let failing = true;
    class Flaky extends HookEvents {
      override refresh(): boolean {
        if (failing) throw new Error(`bad\u001b[2J\nread ${'x'.repeat(5000)}`);
        return super.refresh();
      }
    }
    const watch = new PaneWatch(tmux.client, Date.now, new Flaky(path.join(tempDir(), 'events')));
    const pane = await tmux.newSession('flaky', tempDir(), 'sh -c "echo flaky; sleep 100000"');
    const overlay = new ActivityOverlay(watch);
    const empty = { version: 1 as const, generatedAt: '', runs: [], problems: [] };
    await watch.round([pane], null);
    const [row, ...more] = overlay.apply(empty).problems;
    expect(more).toEqual([]);
    expect(row?.message).toMatch(/^hook events: bad read x+…$/);
    expect(Array.from(row!.message.slice('hook events: '.length))).toHaveLength(200);
    failing = false;
    await watch.round([pane], null);
    expect(overlay.apply(empty).problems).toEqual([]);
  });
});
