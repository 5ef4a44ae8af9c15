/**
 * A remote preview's pieces: a box sends only the lines that changed (a scroll drops the top lines),
 * cleaned to text and colour; the door cleans them again; this side puts the pane together, asks
 * for it whole when it misses lines, and cuts a box that sends more than the cap a second.
 */
import { describe, expect, it } from 'vitest';
import { admitLine } from '../../src/remote/door.js';
import { PaneFeed } from '../../src/remote/pane-feed.js';
import { PaneServer, overlap, paneLines } from '../../src/remote/pane-serve.js';
import type { LocalPaneLooks } from '../../src/store/preview-stream.js';
import type { PaneLines } from '../../src/remote/protocol.js';
import { MAX_PANE_LINES, PREVIEW_BYTES_PER_SEC } from '../../src/remote/protocol.js';
import { sgrOnlyLine } from '../../src/text/sgr-only.js';
import { waitFor } from '../helpers/wait-for.js';

const OSC52 = '\u001b]52;c;cm0gLXJmIH4K\u0007';
const RAW = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]|\u001b(?!\[[0-9;:]*m)/;

function feedOf(now = { t: 0 }) {
  const asked: unknown[] = [];
  const problems: string[] = [];
  let changes = 0;
  const feed = new PaneFeed({
    write: (m) => {
      asked.push(m);
      return true;
    },
    problem: (p) => problems.push(p),
    changed: () => changes++,
    now: () => now.t,
  });
  return { feed, asked, problems, changes: () => changes, now };
}

const msg = (drop: number, keep: number, lines: string[]): PaneLines => ({
  type: 'pane',
  pane: '%3',
  server: null,
  drop,
  keep,
  lines,
});

describe('pane lines over the link', () => {
  it('sends a scroll as the top lines dropped and the new line, a change in place as the lines from it on', () => {
    expect(overlap([], ['a', 'b'])).toEqual({ drop: 0, keep: 0 });
    expect(overlap(['a', 'b', 'c'], ['b', 'c', 'd'])).toEqual({ drop: 1, keep: 2 });
    expect(overlap(['a', 'b', 'c'], ['a', 'b', 'x'])).toEqual({ drop: 0, keep: 2 });
    expect(overlap(['x', 'a', 'x', 'a', 'b'], ['x', 'a', 'b', 'c'])).toEqual({ drop: 2, keep: 3 });
    expect(overlap(['a'], ['z'])).toEqual({ drop: 0, keep: 0 });
  });

  it('cleans a line met in the last capture once: the same lines as cleaning each, one capture kept', () => {
    const hostile = (i: number) => `\u001b[3${i % 8}mline ${i}${OSC52}\u001b[0m \u001b[2Jx\u0007`;
    const cleaned = { last: new Map<string, string>() };
    for (let at = 0; at < 30; at++) {
      // A pane scrolling by a line or two, a line changed in place now and then.
      const lines = Array.from({ length: 60 }, (_, i) => hostile(at * 2 + i));
      if (at % 7 === 3) lines[10] = `changed ${at}\u001b]0;title\u0007`;
      const text = `${lines.join('\n')}\n`;
      expect(paneLines(text, cleaned)).toEqual(paneLines(text));
      expect(cleaned.last.size).toBeLessThanOrEqual(60);
      expect([...cleaned.last.keys()].every((raw) => lines.includes(raw))).toBe(true);
    }
  });

  it('keeps colour escapes and nothing else, on the box and at the door', () => {
    const line = `\u001b[31mred${OSC52}\u001b[0m \u001b[2Jcleared\u0007\u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u202ebidi`;
    const clean = sgrOnlyLine(line);
    expect(clean).toBe('\u001b[31mred\u001b[0m clearedlink <U+202E>bidi');
    expect(paneLines(`one\n${line}\n`)).toEqual(['one', clean]);
    expect(paneLines(Array.from({ length: 1000 }, (_, i) => `l${i}`).join('\n'))).toHaveLength(MAX_PANE_LINES);

    const admitted = admitLine(JSON.stringify(msg(0, 0, [line, 'x'.repeat(10_000)])));
    expect(admitted.message?.type).toBe('pane');
    const lines = admitted.message?.type === 'pane' ? admitted.message.lines : [];
    expect(lines[0]).toBe(clean);
    expect(lines[1]).toHaveLength(2048);
    for (const l of lines) expect(l).not.toMatch(RAW);
    // A pane id or a count that is not one is no pane message.
    expect(admitLine(JSON.stringify({ ...msg(0, 0, []), pane: `%3${OSC52}` })).message).toBeNull();
    expect(admitLine(JSON.stringify(msg(-1, 0, []))).message).toBeNull();
  });

  it('puts the pane together from what changed, and asks for it whole when it misses lines', async () => {
    const { feed, asked } = feedOf();
    feed.want('%3', null, true);
    expect(asked).toEqual([{ type: 'preview', pane: '%3', server: null }]);
    feed.received(msg(0, 0, ['a', 'b', 'c']), 50);
    feed.received(msg(1, 2, ['d']), 50);
    expect(feed.view?.text).toBe('b\nc\nd');
    // Lines it does not have: dropped, and the pane asked for again.
    feed.received(msg(5, 3, ['e']), 50);
    expect(feed.view?.text).toBe('b\nc\nd');
    await new Promise((r) => setTimeout(r, 5));
    expect(asked).toHaveLength(2);
    // Another pane's lines are not this preview's.
    feed.received({ ...msg(0, 0, ['zzz']), pane: '%9' }, 50);
    expect(feed.view).toBeNull();
    feed.want(null, null, true);
    expect(asked.at(-1)).toEqual({ type: 'preview', pane: null });
  });

  it('cuts a box that sends more than the cap in a second, says so once, drops the rest unread, and asks again after', async () => {
    const clock = { t: 0 };
    const { feed, asked, problems } = feedOf(clock);
    feed.want('%3', null, true);
    const line = 'x'.repeat(1000);
    let taken = 0;
    for (let i = 0; i < 1000; i++) {
      const raw = JSON.stringify(msg(0, 0, [`${i} ${line}`]));
      if (feed.cuts(raw)) continue;
      feed.received(msg(0, 0, [`${i} ${line}`]), raw.length);
      taken++;
    }
    expect(taken * 1000).toBeLessThanOrEqual(PREVIEW_BYTES_PER_SEC + 1100);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/more of a pane than 128 KB a second; it was cut/);
    // Once the second is over, the pane is asked for again, whole.
    clock.t = 1000;
    expect(feed.cuts('{"type":"pane"')).toBe(false);
    await waitFor(() => asked.filter((a) => (a as { pane: string | null }).pane === '%3').length === 2, 3000, {
      what: 'the pane asked for again',
    });
    feed.dispose();
  });

  it('on the box: one pane followed at a time, the run previewed captured every tick, a bad pane id refused', () => {
    const followed: (string | null)[] = [];
    const focused: (string | null)[] = [];
    const sent: PaneLines[] = [];
    const text = new Map([['%3', 'one\ntwo\n']]);
    const looks = {
      stream: { follow: (k: string | null) => followed.push(k) },
      focus: (r: string | null) => focused.push(r),
      subscribe: () => () => {},
      watch: { look: (pane: string) => (text.has(pane) ? { text: text.get(pane) } : undefined) },
    } as unknown as LocalPaneLooks;
    const server = new PaneServer(looks, (m) => sent.push(m));
    expect(server.request(`%3${OSC52}`, null)).toMatch(/pane id/);
    expect(server.request('%3', null, 'claude-team:crew')).toBeNull();
    expect(followed.at(-1)).toBe('%3');
    expect(focused.at(-1)).toBe('claude-team:crew');
    expect(sent).toEqual([{ type: 'pane', pane: '%3', server: null, drop: 0, keep: 0, lines: ['one', 'two'] }]);
    expect(server.request('%4', 'claude-swarm-12', 'claude-team:other')).toBeNull();
    expect(followed.at(-1)).toBe('claude-swarm-12/%4');
    server.request(null, null);
    expect(followed.at(-1)).toBeNull();
    expect(focused.at(-1)).toBeNull();
    server.dispose();
  });
});
