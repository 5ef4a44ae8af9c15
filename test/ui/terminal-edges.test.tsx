import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../src/model/model.js';
import { fixtureSnapshot, harnessRun, member, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { overwideLines, renderRoom, waitForText } from './helpers.js';

const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

/** A tina run in a long phase whose members run a long model name. */
function longNamesRun(): Run {
  const t = tinaRun();
  return {
    ...t,
    phase: { current: 'IMPLEMENTATION', total: 5, status: 'executing' },
    members: [
      member('team-lead', { role: 'team-lead', model: 'claude-opus-4-5', paneId: '%3', state: 'alive', lead: true }),
      member('worker-1', { model: 'claude-sonnet-4-5', paneId: '%4', state: 'alive' }),
    ],
  };
}

describe('the edges of the terminal', () => {
  for (const [columns, rows] of [
    [160, 45],
    [250, 60],
  ] as const) {
    it(`at ${columns}×${rows} the phase and the model are shown whole while other columns have room`, async () => {
      const { screen } = renderRoom({ columns, rows, snapshot: fixtureSnapshot([longNamesRun(), harnessRun()]) });
      mounted.push(screen);
      await waitForText(screen, 'NEEDS');
      await waitForText(screen, 'MODEL');
      const frame = screen.frame();
      expect(frame).toContain('IMPLEMENTATION/5');
      expect(frame).toContain('claude-opus-4-5');
      expect(frame).toContain('claude-sonnet-4-5');
      expect(frame).not.toMatch(/IMPLEME[A-Z]*…/);
      expect(overwideLines(frame, columns)).toEqual([]);
    });
  }

  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
  ] as const) {
    it(`at ${columns}×${rows} a help line longer than the overlay wraps instead of being cut`, async () => {
      const { screen } = renderRoom({ columns, rows });
      mounted.push(screen);
      await waitForText(screen, 'Runs');
      await screen.press('?');
      await waitForText(screen, 'Navigate');
      const frame = screen.frame();
      // `page-down` says where it works in its last words: at 80 columns they come on the next line.
      expect(frame).toContain('dialogs, help)');
      // The overlay's rows: the widest stretch between two heavy borders on a line (panes beside it are narrower).
      const spans = frame.split('\n').flatMap((l) => [...l.matchAll(/┃([^┃]*)(?=┃)/g)].map((m) => m[1] ?? ''));
      const widest = Math.max(...spans.map((t) => t.length));
      const help = spans.filter((t) => t.length === widest);
      expect(help.some((t) => t.includes('page-up'))).toBe(true);
      expect(help.filter((t) => t.includes('…'))).toEqual([]);
      expect(overwideLines(frame, columns)).toEqual([]);
    });
  }
});

describe('a list longer than the terminal', () => {
  it('at 80×24 the runs list title says how many runs are off screen, and the cursor reaches the last one', async () => {
    const runs = Array.from({ length: 12 }, (_, i) => ({ ...harnessRun(), id: `harness:run-${i}`, name: `run-${i}` }));
    const { screen } = renderRoom({ columns: 80, rows: 24, snapshot: fixtureSnapshot(runs) });
    mounted.push(screen);
    await waitForText(screen, 'off screen');
    const shown = (screen.frame().match(/run-\d+/g) ?? []).length;
    expect(screen.frame()).toContain(`Runs · 12 · ${12 - shown} at a gate off screen`);
    await screen.press(...Array.from({ length: 11 }, () => 'j'));
    await waitForText(screen, 'run-11');
    expect(screen.frame()).toMatch(/> +harness +run-11 /);
  });
});

describe('what needs the operator at 80 columns', () => {
  it('at 80×24 the runs list shows what a run that needs you waits for', async () => {
    const { screen } = renderRoom({ columns: 80, rows: 24 });
    mounted.push(screen);
    await waitForText(screen, 'NEEDS');
    expect(screen.frame()).toContain('Checkpoint plan-');
    expect(overwideLines(screen.frame(), 80)).toEqual([]);
  });
});
