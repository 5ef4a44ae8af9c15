/** Tab follows the screen: the runs list, then each column of panes top to bottom, left column first. */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestScreen } from './helpers.js';
import { renderRoom, waitFor, waitForText } from './helpers.js';

const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

/** Where the focused pane's title is: its name, line and column. */
function focused(frame: string): { name: string; line: number; column: number } {
  const lines = frame.split('\n');
  const line = lines.findIndex((l) => l.includes('[> '));
  const column = (lines[line] ?? '').indexOf('[> ');
  return { name: /\[> (\w+)/.exec(lines[line] ?? '')?.[1] ?? '', line, column };
}

describe('Tab order', () => {
  for (const [columns, rows] of [
    [120, 40],
    [200, 50],
  ] as const) {
    it(`at ${columns}×${rows} goes column by column, each top to bottom`, async () => {
      // The fixture's first run has a problem: the problems pane is shown, in the left column.
      const { screen } = renderRoom({ columns, rows });
      mounted.push(screen);
      await waitForText(screen, '[> Runs');
      const seen = [focused(screen.frame())];
      for (;;) {
        const before = screen.frame();
        await screen.press('\t');
        await waitFor(() => expect(screen.frame()).not.toBe(before));
        const at = focused(screen.frame());
        if (at.name === 'Runs') break;
        seen.push(at);
      }
      expect(seen.map((s) => s.name)).toEqual([
        'Runs',
        'Team',
        'Tasks',
        'Problems',
        'Gates',
        'Reviews',
        'Activity',
        'Preview',
      ]);
      // Each pane after the runs list is below the one before in its column, or in a column further right.
      const panes = seen.slice(1);
      for (const [i, p] of panes.entries()) {
        const prev = panes[i - 1];
        if (prev) expect(p.column > prev.column || (p.column === prev.column && p.line > prev.line), p.name).toBe(true);
      }
    });
  }
});
