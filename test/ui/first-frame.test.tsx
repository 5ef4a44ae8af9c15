/**
 * The opening frame the launcher paints before React loads must be, byte for byte, the frame the live
 * screen draws first for the same snapshot: then its arrival changes nothing on screen (no flicker).
 */
import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { openingFrame } from '../../src/ui/first-frame/frame-text.js';
import { defaultBindings } from '../../src/keys/keymap.js';
import { paintDiff } from '../../src/ui/terminal/screen-painter.js';
import { createTheme } from '../../src/ui/theme.js';
import { NOW, fixtureSnapshot, gate } from './fixtures.js';
import { PaneWatch } from '../../src/store/captures.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { renderRoom, waitFor } from './helpers.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

/** The live control room's first frame on `snapshot`. */
async function liveFrame(
  snapshot: Snapshot,
  columns: number,
  rows: number,
  color: boolean,
  readonly = false,
): Promise<string> {
  // The session's captures exist from the start, but none has arrived by the first frame.
  const watch = new PaneWatch(new TmuxClient({ name: 'tower-test-never-started' }));
  const { screen } = renderRoom({ columns, rows, snapshot, props: { color, readonly, contextThreshold: 70, watch } });
  try {
    await waitFor(() => screen.frame() !== '', 5000, { what: 'a frame' });
    return screen.frame();
  } finally {
    screen.unmount();
  }
}

function opening(snapshot: Snapshot, columns: number, rows: number, color: boolean, readonly = false): string {
  return openingFrame(
    { snapshot, columns, rows, bindings: defaultBindings(), readonly, contextThreshold: 70, now: NOW },
    createTheme(color),
  );
}

/** A snapshot with many runs, a young gate (ages in seconds) and a problem. */
function busySnapshot(): Snapshot {
  const base = fixtureSnapshot();
  const extra = Array.from({ length: 30 }, (_, i) => ({
    ...emptyRun('harness', `extra-${i}`, `/p/${i}`, null),
    status: 'waiting' as const,
    gates: [gate(`g${i}`, { since: new Date(NOW - 30_000).toISOString() })],
  }));
  return { ...base, runs: [...base.runs, ...extra], problems: [{ file: '/x/y.json', message: 'invalid JSON' }] };
}

describe('the opening frame', () => {
  const sizes: [number, number][] = [
    [120, 40],
    [200, 50],
    [80, 24],
    [100, 30],
    [30, 8],
  ];
  for (const [columns, rows] of sizes) {
    for (const color of [true, false]) {
      it(`is the live screen's first frame at ${columns}×${rows}${color ? ', in colour' : ''}`, async () => {
        chalk.level = color ? 3 : 0;
        const snapshot = fixtureSnapshot();
        const ours = opening(snapshot, columns, rows, color);
        if (color) expect(ours).toContain('\u001b[3');
        else expect(ours).not.toContain('\u001b[');
        expect(ours).toBe(await liveFrame(snapshot, columns, rows, color));
        // What the painter would write over it: nothing.
        expect(
          paintDiff(ours.split('\n'), (await liveFrame(snapshot, columns, rows, color)).split('\n'), columns, rows),
        ).toBe('');
      });
    }
  }

  it("is the live screen's first frame with many runs, young gates, problems, 256 colours and read-only", async () => {
    chalk.level = 2;
    const snapshot = busySnapshot();
    expect(opening(snapshot, 150, 45, true, true)).toMatch(/\[read-only\][\s\S]*\u001b\[48;5;\d+m/);
    expect(opening(snapshot, 150, 45, true, true)).toBe(await liveFrame(snapshot, 150, 45, true, true));
    expect(opening(snapshot, 90, 30, true)).toBe(await liveFrame(snapshot, 90, 30, true));
  });

  it('lists the runs when there are none and says so', async () => {
    chalk.level = 3;
    const empty: Snapshot = { version: 1, generatedAt: new Date(NOW).toISOString(), runs: [], problems: [] };
    const ours = opening(empty, 120, 40, true);
    expect(ours).toContain('no runs found');
    expect(ours).toBe(await liveFrame(empty, 120, 40, true));
  });
});
