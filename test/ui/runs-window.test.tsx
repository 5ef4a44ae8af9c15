/**
 * The runs list on a short terminal: the runs that need the operator most stay on screen while the
 * cursor is lower down, the title names what the runs off screen need, and the cursor stays on its
 * run when another grows urgent and moves to the top.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../src/model/model.js';
import { blockedRun, fixtureSnapshot, harnessRun, member, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { renderRoom, waitFor, waitForText } from './helpers.js';

const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

/** A running harness run named `name`. */
function running(name: string): Run {
  return { ...harnessRun(), id: `harness:${name}`, name, status: 'running', gates: [] };
}

/** A running harness run whose one member asks a question. */
function asking(name: string): Run {
  return {
    ...running(name),
    members: [member('worker', { paneId: '%7', state: 'alive', activity: 'waiting', activityCue: 'question' })],
  };
}

/** The row the cursor is on (`>` in the mark column). */
const cursorRow = (frame: string): string => frame.split('\n').find((l) => /^┃> /.test(l)) ?? '';

describe('the runs list at 80×24', () => {
  it('keeps the most urgent run on screen with the cursor lower down, and names what the runs off screen need', async () => {
    const runs = [blockedRun(), ...['r1', 'r2', 'r3', 'r4', 'r5'].map(running), asking('r6'), running('r7')];
    const { screen } = renderRoom({ columns: 80, rows: 24, snapshot: fixtureSnapshot(runs) });
    mounted.push(screen);
    await waitForText(screen, 'off screen');
    const shown = (screen.frame().match(/harness +r\d /g) ?? []).length + 1;
    expect(shown).toBeLessThan(runs.length);
    // Down to the last row on screen: the window does not move, the escalated run stays in it.
    await screen.press(...Array.from({ length: shown - 1 }, () => 'j'));
    await waitFor(() => expect(cursorRow(screen.frame())).toMatch(new RegExp(`harness +r${shown - 1} `)));
    expect(screen.frame()).toMatch(/sage +epic-42 +blocked/);
    // What is off screen is counted by what it needs, the asking run first.
    expect(screen.frame()).toContain(`Runs · 8 · 1 asking, ${runs.length - shown - 1} running off screen`);
    // One row further and the list scrolls by one: the title now counts the escalated run above.
    await screen.press('j');
    await waitFor(() => expect(screen.frame()).toContain('1 escalated, 1 asking'));
    expect(cursorRow(screen.frame())).toMatch(new RegExp(`harness +r${shown} `));
  });

  it('leaves the cursor on its run when another run grows urgent and moves to the top', async () => {
    const { screen, store } = renderRoom({
      columns: 80,
      rows: 24,
      snapshot: fixtureSnapshot([harnessRun(), tinaRun()]),
    });
    mounted.push(screen);
    await waitFor(() => expect(cursorRow(screen.frame())).toMatch(/harness +payments/));
    store.set(fixtureSnapshot([blockedRun(), harnessRun(), tinaRun()]));
    await waitForText(screen, 'epic-42');
    // The new first run is on screen, and the cursor did not follow it there.
    expect(cursorRow(screen.frame())).toMatch(/harness +payments/);
    expect(screen.frame()).toMatch(/┃ {2}sage +epic-42/);
  });
});
