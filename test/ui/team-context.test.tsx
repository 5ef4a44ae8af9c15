/** How full each member's context is, in the team pane and the preview's title. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../src/model/model.js';
import { contextCell, teamLines } from '../../src/ui/panes/team-pane.js';
import { compactCount, contextNote } from '../../src/ui/panes/preview-lines.js';
import { fixtureSnapshot, member, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { renderRoom, waitForText } from './helpers.js';

const TAB = '\t';
const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

/** The tina fixture with the lead past the threshold and one worker under it; the others unknown. */
function runWithContext(): Run {
  const run = tinaRun();
  return {
    ...run,
    members: run.members.map((m) =>
      m.name === 'team-lead'
        ? {
            ...m,
            context: { usedPct: 78.4, tokens: 156_800, window: 200_000 },
            tokens: { input: 12_000, output: 40_000, cacheRead: 1_100_000, cacheWrite: 88_000 },
          }
        : m.name === 'worker-1'
          ? { ...m, context: { usedPct: 41, tokens: 82_000, window: 200_000 } }
          : m,
    ),
  };
}

const text = (line: { text: string }[]): string => line.map((s) => s.text).join('');

describe('context per member', () => {
  it('shows CTX with each known member percentage in the team pane, the lead marked over the threshold', async () => {
    const { screen } = renderRoom({ columns: 120, rows: 40, snapshot: fixtureSnapshot([runWithContext()]) });
    mounted.push(screen);
    await waitForText(screen, 'auth-feature');
    await screen.press(TAB);
    await waitForText(screen, '[> Team');
    const frame = screen.frame();
    expect(frame).toContain('CTX');
    const lead = frame.split('\n').find((l) => l.includes('★ team-lead'));
    const worker = frame.split('\n').find((l) => l.includes('worker-1'));
    expect(lead).toMatch(/\b78%!/);
    expect(worker).toMatch(/\b41%(?!!)/);
  });

  it('keeps the column at 80 columns and never draws past the pane', async () => {
    const { screen } = renderRoom({ columns: 80, rows: 24, snapshot: fixtureSnapshot([runWithContext()]) });
    mounted.push(screen);
    await waitForText(screen, 'auth-feature');
    await screen.press(TAB);
    await waitForText(screen, '[> Team');
    expect(screen.frame()).toMatch(/team-lead.*78%!/);
    for (const width of [58, 78, 118]) {
      for (const line of teamLines({
        run: runWithContext(),
        cursor: 0,
        focused: true,
        width,
        height: 10,
        now: 0,
        threshold: 70,
      }))
        expect(text(line).length).toBeLessThanOrEqual(width);
    }
  });

  it('has no column when no member context is known', () => {
    const lines = teamLines({
      run: tinaRun(),
      cursor: 0,
      focused: true,
      width: 100,
      height: 10,
      now: 0,
      threshold: 70,
    }).map(text);
    expect(lines[0]).not.toContain('CTX');
    expect(lines.join('\n')).not.toMatch(/\d%/);
  });

  it('is amber at or past the threshold (the run threshold before the configured one)', () => {
    const m = member('a', { context: { usedPct: 70, tokens: 1, window: 2 } });
    expect(contextCell(m, 70)).toEqual({ text: '70%!', tone: 'amber' });
    expect(contextCell(m, 71)).toEqual({ text: '70%', tone: 'plain' });
    expect(contextCell(member('b'), 70)).toEqual({ text: '' });
    const run = { ...runWithContext(), context: { usedPct: 50, threshold: 90 } };
    const lead = teamLines({ run, cursor: 0, focused: true, width: 100, height: 10, now: 0, threshold: 70 })
      .map(text)
      .find((l) => l.includes('team-lead'));
    expect(lead).toMatch(/78%(?!!)/);
  });

  it('names the context window and the tokens in the preview title', () => {
    const lead = runWithContext().members[0]!;
    expect(contextNote(lead)).toBe(' · context 78% of 200k · 1.2M in 40k out');
    expect(contextNote(member('x'))).toBe('');
    expect([compactCount(999), compactCount(1234), compactCount(200_000), compactCount(1_500_000)]).toEqual([
      '999',
      '1.2k',
      '200k',
      '1.5M',
    ]);
  });
});
