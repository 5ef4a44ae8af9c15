import { vi } from 'vitest';

// Colour must be possible for "no colour" to mean anything: chalk decides its level at import.
vi.hoisted(() => {
  vi.stubEnv('FORCE_COLOR', '1');
});

import { render as renderInkTest } from 'ink-testing-library';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ActivityStore } from '../../src/kit/activity.js';
import { ControlRoom } from '../../src/ui/app.js';
import { KEYMAP } from '../../src/keys/keymap.js';
import { emptyRun } from '../../src/model/model.js';
import { fixtureSnapshot, harnessRun, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { RecordingActions, memoryStore, renderRoom, waitFor, waitForText } from './helpers.js';

const KEY = {
  down: '\u001b[B',
  up: '\u001b[A',
  tab: '\t',
  shiftTab: '\u001b[Z',
  enter: '\r',
  esc: '\u001b',
  ctrlC: '\u0003',
  backspace: '\u007f',
};
const mounted: TestScreen[] = [];
const room = (opts: Parameters<typeof renderRoom>[0] = {}) => {
  const r = renderRoom(opts);
  mounted.push(r.screen);
  return r;
};
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** The line of the runs list that holds the cursor. */
/**
 * The commands the open help overlay lists: long lines wrap onto more rows than there are commands,
 * so it is scrolled until nothing is left below the fold.
 */
async function commandsInHelp(screen: TestScreen): Promise<string[]> {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    for (const spec of KEYMAP) if (screen.frame().includes(`${spec.command}:`)) seen.add(spec.command);
    if (!screen.frame().includes('(more ↓)')) break;
    await screen.press('j');
  }
  return [...seen].sort();
}

const selectedRun = (frame: string) => frame.split('\n').find((l) => /^[┃│]> /.test(l)) ?? '';

describe('navigation and focus', () => {
  it('moves the run selection with j/k and the arrow keys, and shows the selected run', async () => {
    const { screen } = room();
    await waitFor(() => selectedRun(screen.frame()).includes('epic-42'));
    await screen.press('j');
    await waitFor(() => selectedRun(screen.frame()).includes('payments'));
    await screen.press(KEY.down);
    await waitFor(() => selectedRun(screen.frame()).includes('auth-feature'));
    // Its panes follow: the gates tab shows tina's context gate.
    expect(screen.frame()).toContain('checkpoint needed (context 78%)');
    await screen.press('k', KEY.up);
    await waitFor(() => selectedRun(screen.frame()).includes('epic-42'));
  });

  it('cycles pane focus with Tab and Shift-Tab in screen order, marking the focused pane with [> …]', async () => {
    const { screen } = room({ columns: 80, rows: 24 });
    await waitForText(screen, '[> Runs');
    await screen.press(KEY.tab);
    await waitForText(screen, '[> Team');
    expect(screen.frame()).not.toContain('[> Runs');
    // The left column top to bottom, then the right one: the preview, at the bottom right, is last.
    await screen.press(KEY.tab);
    await waitForText(screen, '[> Tasks');
    await screen.press(KEY.shiftTab, KEY.shiftTab);
    await waitForText(screen, '[> Runs');
    await screen.press(KEY.shiftTab);
    await waitForText(screen, '[> Preview');
    await screen.press(KEY.shiftTab);
    await waitForText(screen, '[> Activity');
    await screen.press(KEY.esc);
    await waitForText(screen, '[> Runs');
  });

  it('handles several keys arriving in one read one by one', async () => {
    const { screen } = room();
    await waitForText(screen, '[> Runs');
    await screen.press('jj');
    await waitFor(() => selectedRun(screen.frame()).includes('auth-feature'));
  });

  it('reads Esc followed at once by a key as two keys, not as Alt', async () => {
    const { screen } = room();
    await screen.press(KEY.tab);
    await waitForText(screen, '[> Team');
    await screen.press('\u001bj');
    await waitForText(screen, '[> Runs');
    await waitFor(() => selectedRun(screen.frame()).includes('payments'));
  });

  it('works through ink-testing-library as well', async () => {
    const store = memoryStore(fixtureSnapshot());
    const r = renderInkTest(
      <ControlRoom store={store} activity={new ActivityStore()} actions={new RecordingActions()} color={false} />,
    );
    try {
      await waitFor(() => (r.lastFrame() ?? '').includes('epic-42'));
      r.stdin.write('j');
      await waitFor(() => selectedRun(r.lastFrame() ?? '').includes('payments'));
    } finally {
      r.unmount();
    }
  });
});

describe('filter', () => {
  it('narrows as you type; Enter keeps it and selects the first match; Esc clears it', async () => {
    const { screen } = room();
    await waitForText(screen, 'epic-42');
    await screen.press('/');
    await waitForText(screen, 'filter:');
    await screen.press('a', 'u', 't', 'h');
    await waitForText(screen, 'Runs · 1 of 5');
    expect(screen.frame()).not.toContain('epic-42');
    await screen.press(KEY.enter);
    await waitFor(() => selectedRun(screen.frame()).includes('auth-feature'));
    expect(screen.frame()).toContain('checkpoint needed (context 78%)');
    expect(screen.frame()).toContain('(Esc clears it)');
    // The keys are back: j is a movement again, not text.
    await screen.press('j');
    expect(screen.frame()).toContain('filter: auth');
    await screen.press(KEY.esc);
    await waitForText(screen, 'Runs · 5');
    expect(screen.frame()).toContain('epic-42');
  });

  it('Esc in the prompt clears the filter at once, and Backspace erases', async () => {
    const { screen } = room();
    await screen.press('/', 'x', 'y');
    await waitForText(screen, 'no run matches the filter');
    await screen.press(KEY.backspace, KEY.backspace);
    await waitForText(screen, 'epic-42');
    expect(screen.frame()).toContain('filter: ▏');
    await screen.press('q', KEY.esc);
    await waitForText(screen, 'Runs · 5');
    expect(screen.frame()).not.toContain('filter:');
  });
});

describe('help overlay', () => {
  it('lists every command of the keymap with its keys', async () => {
    const { screen } = room({ columns: 120, rows: 50 });
    await screen.press('?');
    await waitForText(screen, 'Keys');
    expect(screen.frame()).toContain('Shift-Tab');
    expect(await commandsInHelp(screen)).toEqual(KEYMAP.map((s) => s.command).sort());
    await screen.press('?');
    await waitFor(() => !screen.frame().includes('force-quit:'));
  });

  it('scrolls on a small screen so every command can be read', async () => {
    const { screen } = room({ columns: 80, rows: 24 });
    await screen.press('?');
    await waitForText(screen, '(more ↓)');
    expect(await commandsInHelp(screen)).toEqual(KEYMAP.map((s) => s.command).sort());
    await screen.press(KEY.esc);
    await waitFor(() => !screen.frame().includes('(more ↓)'));
  });
});

describe('live data', () => {
  it('re-renders when the store hands out a new snapshot', async () => {
    const { screen, store } = room();
    await waitForText(screen, 'epic-42');
    const added = { ...emptyRun('harness', 'brand-new', '/w', '/w/.harness'), status: 'waiting' as const };
    store.set(fixtureSnapshot([added, harnessRun(), tinaRun()]));
    await waitForText(screen, 'brand-new');
    expect(screen.frame()).not.toContain('epic-42');
  });

  it('keeps the selected run selected when the order changes', async () => {
    const { screen, store } = room({ snapshot: fixtureSnapshot([harnessRun(), tinaRun()]) });
    await screen.press('j');
    await waitFor(() => selectedRun(screen.frame()).includes('auth-feature'));
    store.set(fixtureSnapshot([tinaRun(), harnessRun()]));
    await waitFor(() => screen.frame().indexOf('auth-feature') < screen.frame().indexOf('payments'));
    expect(selectedRun(screen.frame())).toContain('auth-feature');
  });

  it('shows gate ages from the clock and stops the clock when unmounted', async () => {
    const { screen, clock } = room({ snapshot: fixtureSnapshot([harnessRun()]) });
    await waitForText(screen, '12m');
    clock.set(clock.now() + 60_000);
    await waitForText(screen, '13m');
    expect(clock.subscribers()).toBeGreaterThan(0);
    screen.unmount();
    expect(clock.subscribers()).toBe(0);
  });
});

describe('quitting', () => {
  it('q quits', async () => {
    const { screen, quits } = room();
    const exited = screen.waitUntilExit();
    await screen.press('q');
    await exited;
    expect(quits()).toBe(1);
  });

  it('Ctrl-C quits even from the filter prompt, where q is text', async () => {
    const { screen, quits } = room();
    const exited = screen.waitUntilExit();
    await screen.press('/', 'q');
    await waitForText(screen, 'filter: q');
    expect(quits()).toBe(0);
    await screen.press(KEY.ctrlC);
    await exited;
    expect(quits()).toBe(1);
  });
});
