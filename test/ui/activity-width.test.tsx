/** An activity line longer than its pane: a wide terminal shows it over more rows, `v` reads it whole. */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestScreen } from './helpers.js';
import { renderRoom, waitFor, waitForText } from './helpers.js';

const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

/** A refusal's reason as long as the real ones get, ending in a word that says it was all shown. */
const LONG =
  'refused: the pane shows a dialog tower cannot read (no numbered options under a question), so no key is typed into it; attach and answer it there END-OF-LINE';

/** The screen with box borders and line ends flattened, so a wrapped sentence can be looked for. */
const flat = (frame: string): string => frame.replace(/[│┃]/g, ' ').replace(/\s+/g, ' ');

/** A control room of `columns`×`rows` whose activity pane holds the long line. */
async function roomWithLongLine(columns: number, rows: number): Promise<TestScreen> {
  const { screen, activity } = renderRoom({ columns, rows });
  mounted.push(screen);
  await waitForText(screen, 'Activity');
  activity.push({ action: 'answer', runId: 'tina:auth-feature', target: '%3', status: 'refused', message: LONG });
  await waitForText(screen, 'Activity · 1');
  return screen;
}

describe('an activity line longer than its pane', () => {
  it('at 200×50 is shown whole, over more rows', async () => {
    const screen = await roomWithLongLine(200, 50);
    // Every word of the line is on screen, the last one too: the line went on over more rows.
    await waitFor(() => expect(flat(screen.frame())).toContain('attach and answer it there END-OF-LINE'));
  });

  it('at 120×40 ends in …, and v on it reads it whole', async () => {
    const screen = await roomWithLongLine(120, 40);
    expect(screen.frame()).not.toContain('END-OF-LINE');
    for (let i = 0; i < 8 && !/\[> Activity/.test(screen.frame()); i++) {
      const before = screen.frame();
      await screen.press('\t');
      await waitFor(() => expect(screen.frame()).not.toBe(before));
    }
    // The footer offers it, and the key does it.
    await waitFor(() => expect(screen.frame()).toContain('v read line'));
    await screen.press('v');
    await waitFor(() => expect(flat(screen.frame())).toContain('END-OF-LINE'));
  });
});
