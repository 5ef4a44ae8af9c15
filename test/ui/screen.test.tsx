import { vi } from 'vitest';

// Colour must be possible for "no colour" to mean anything: chalk decides its level at import.
vi.hoisted(() => {
  vi.stubEnv('FORCE_COLOR', '1');
});

import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../src/model/model.js';
import { fixtureSnapshot, gate, harnessRun, member, task, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { overwideLines, renderRoom, waitFor, waitForText } from './helpers.js';

const KEY = { tab: '\t', enter: '\r', esc: '\u001b', down: '\u001b[B' };
const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** Runs whose file-derived text is long, wide (CJK, emoji) or hostile (escape sequences). */
function awkwardRuns(): Run[] {
  const evil = 'evil\u001b[2J\u001b]0;pwned\u0007\u009b31mname\r\nnext';
  const t = tinaRun();
  return [
    {
      ...harnessRun(),
      id: `harness:${evil}`,
      name: evil,
      gates: [
        gate('g1', {
          title: `${evil} ${'very long title '.repeat(12)}`,
          body: `body line\u001b[31m red\n${'漢字'.repeat(80)}`,
        }),
      ],
      problems: [{ file: '/work/payments/.harness/x.json', message: `bad\u001b[1mfile ${'😀'.repeat(50)}` }],
    },
    {
      ...t,
      name: '漢字のとても長い名前'.repeat(6),
      id: `tina:${'漢字のとても長い名前'.repeat(6)}`,
      // Every member's context known, one at 100%: the team pane's widest context column.
      members: [
        ...t.members,
        member('😀'.repeat(30), { role: 'r'.repeat(60), model: 'm'.repeat(40), paneId: '%77', state: 'alive' }),
      ].map((m, i) => ({
        ...m,
        context: { usedPct: i === 0 ? 100 : 33, tokens: 1_000_000, window: 1_000_000 },
        tokens: { input: 9e9, output: 9e9, cacheRead: 0, cacheWrite: 0 },
      })),
      tasks: Array.from({ length: 300 }, (_, i) =>
        task(String(i), {
          subject: `${'subject '.repeat(20)}\u001b[5m${i}`,
          owner: 'o'.repeat(30),
          blockedBy: ['1', '2', '3', '4', '5'],
        }),
      ),
      warnings: [`stale handoff ${'x'.repeat(200)}`],
    },
    ...Array.from({ length: 30 }, (_, i) => ({ ...harnessRun(), id: `harness:p${i}`, name: `p${i}` })),
  ];
}

/** Drives the screen through every pane, the filter, help and a dialog; returns all frames. */
async function tour(columns: number, rows: number, color: boolean): Promise<{ frames: string[] }> {
  const { screen, actions } = renderRoom({ columns, rows, snapshot: fixtureSnapshot(awkwardRuns()), props: { color } });
  actions.planFor = (req) => ({
    request: req,
    run: null,
    title: `Grant ${'g1'} of ${req.run}`,
    effects: [{ kind: 'create', text: `/very/long/path/${'segment/'.repeat(30)}checkpoint.md.granted` }],
    refusal: null,
    destructive: true,
  });
  await waitForText(screen, 'Runs');
  await screen.press('j');
  for (let i = 0; i < 8; i++) await screen.press(KEY.tab, 'G');
  await screen.press(KEY.esc, 'k', 'g');
  await waitForText(screen, 'Grant');
  await screen.press('n', '?', 'j', KEY.esc, '/', '漢', KEY.enter, 'R', 'x', KEY.esc);
  await waitFor(() => !screen.frame().includes('Open a named checkpoint'));
  const frames = [...screen.stdout.frames];
  screen.unmount();
  return { frames };
}

/** Tours are slow to drive (React in development mode): each size is toured once and shared. */
const tours = new Map<string, Promise<string[]>>();
function tourOnce(columns: number, rows: number, color: boolean): Promise<string[]> {
  const key = `${columns}x${rows}:${color}`;
  if (!tours.has(key))
    tours.set(
      key,
      tour(columns, rows, color).then((t) => t.frames),
    );
  return tours.get(key) as Promise<string[]>;
}
const COLOURED_SIZES = [
  [80, 24],
  [120, 40],
  [160, 50],
  [40, 12],
] as const;

describe('width', () => {
  for (const [columns, rows] of COLOURED_SIZES) {
    it(`never draws a line wider than ${columns} columns or more than ${rows} rows`, async () => {
      const frames = await tourOnce(columns, rows, true);
      expect(frames.length).toBeGreaterThan(10);
      for (const f of frames) {
        expect(overwideLines(f, columns)).toEqual([]);
        expect(f.split('\n').length).toBeLessThanOrEqual(rows);
      }
    });
  }

  it('re-lays out cleanly on resize: wide panes side by side, then tabs', async () => {
    const { screen } = renderRoom({ columns: 130, rows: 40, snapshot: fixtureSnapshot([tinaRun(), harnessRun()]) });
    mounted.push(screen);
    await waitForText(screen, 'Team · 4');
    expect(screen.frame()).toContain('Tasks · 3');
    expect(screen.frame()).not.toContain(' │ Tasks 3 │ ');
    const before = screen.stdout.frames.length;
    screen.stdout.resize(80, 24);
    await waitForText(screen, ' │ Tasks 3 │ ');
    // ink draws the old layout once at the new width before the app re-lays out (the painter holds
    // that frame back, see terminal.test.ts); from the first re-laid-out frame on, all fit.
    const after = screen.stdout.frames.slice(before);
    const settled = after.findIndex((f) => f.includes(' │ Tasks 3 │ '));
    for (const f of after.slice(settled)) expect(overwideLines(f, 80)).toEqual([]);
    screen.stdout.resize(30, 10);
    await waitForText(screen, 'needs at least 40×12');
    screen.stdout.resize(120, 30);
    await waitForText(screen, 'Team · 4');
  });
});

describe('no colour', () => {
  it('has no escape codes in any frame, and still says everything in words', async () => {
    const frames = await tourOnce(100, 30, false);
    for (const f of frames) {
      expect(f).not.toContain('\u001b[');
      expect(overwideLines(f, 100)).toEqual([]);
    }
    const all = frames.join('\n');
    for (const word of ['[CHK]', 'waiting', '[> ', '> ', 'CHK 1', 'pending', '● alive', 'filter: '])
      expect(all).toContain(word);
  });

  it('with colour on, the same screens are coloured (so the check above means something)', async () => {
    const frames = await tourOnce(120, 40, true);
    expect(frames.some((f) => f.includes('\u001b['))).toBe(true);
  });

  it('marks escalations red and checkpoints amber in words too: [ESC] vs [CHK]', async () => {
    const { screen } = renderRoom({
      columns: 120,
      rows: 40,
      snapshot: fixtureSnapshot([
        { ...harnessRun(), gates: [gate('a'), gate('b', { kind: 'escalation', grantable: false })] },
      ]),
    });
    mounted.push(screen);
    await waitForText(screen, '[ESC] b');
    expect(screen.frame()).toContain('[CHK] a');
    expect(screen.frame()).toMatch(/CHK 1 ESC 1/);
  });
});

describe('untrusted text', () => {
  it('never lets escape sequences from state files reach the frame', async () => {
    const all = (await Promise.all(COLOURED_SIZES.map(([c, r]) => tourOnce(c, r, true)))).flat().join('\n');
    expect(all).toContain('evil');
    for (const bad of ['\u001b[2J', '\u001b]0;', '\u0007', '\u009b', '\u001b[5m', '\u001b[1mfile', '\r'])
      expect(all).not.toContain(bad);
  });
});

describe('teams that ended', () => {
  it('fold into one line at the end of the runs list; E lists them and folds them again', async () => {
    const ended = Array.from({ length: 1200 }, (_, i) => ({
      ...harnessRun(),
      id: `claude-team:old-${i}`,
      name: `old-${i}`,
      system: 'claude-team' as const,
      gates: [],
      status: 'complete' as const,
      ended: true,
    }));
    const { screen } = renderRoom({
      columns: 120,
      rows: 40,
      snapshot: fixtureSnapshot([...fixtureSnapshot().runs, ...ended]),
    });
    await waitForText(screen, '1,200 teams ended');
    expect(screen.frame()).toMatch(/Runs · \d+ of \d+/);
    expect(screen.frame()).not.toContain('old-0');
    await screen.press('E');
    await waitFor(() => !screen.frame().includes('teams ended'));
    await screen.press('G');
    await waitForText(screen, 'old-1199');
    expect(screen.frame()).toMatch(/old-1199 +ended/);
    await screen.press('E');
    await waitForText(screen, '1,200 teams ended');
    screen.unmount();
  });
});
