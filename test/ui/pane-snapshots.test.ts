/**
 * Each pane as the operator reads it, framed, at 60, 100 and 160 columns: plain text files under
 * test/ui/panes/ that a change to a pane shows in its diff, column by column. A change that is
 * meant rewrites them with `npx vitest run test/ui/pane-snapshots.test.ts -u`, and the diff is read
 * like any other.
 */
import { describe, expect, it } from 'vitest';
import type { PaneLook } from '../../src/store/captures.js';
import type { ActivityEntry } from '../../src/store/types.js';
import { framedPane } from '../../src/ui/components/frame.js';
import { activityLines } from '../../src/ui/panes/activity-pane.js';
import { gatesLines } from '../../src/ui/panes/gates-pane.js';
import { paneSpec } from '../../src/ui/panes/registry.js';
import { captureLines, previewFrame } from '../../src/ui/panes/preview-lines.js';
import { problemsLines } from '../../src/ui/panes/problems-pane.js';
import { reviewsLines } from '../../src/ui/panes/reviews-pane.js';
import { runsPaneLines } from '../../src/ui/panes/runs-lines.js';
import { taskStats, tasksLines } from '../../src/ui/panes/tasks-pane.js';
import { teamLines } from '../../src/ui/panes/team-pane.js';
import type { DetailPane } from '../../src/ui/state/ui-state.js';
import type { Segment } from '../../src/ui/text/segments.js';
import { NOW, blockedRun, fixtureSnapshot, harnessRun, tinaRun } from './fixtures.js';

const WIDTHS = [60, 100, 160] as const;
const HEIGHT = 12;

/** Local times, so the activity pane's clock reads the same in every time zone. */
const at = (h: number, m: number, s: number) => new Date(2026, 2, 1, h, m, s).toISOString();

const ACTIVITY: ActivityEntry[] = [
  {
    id: 1,
    time: at(11, 58, 2),
    action: 'grant',
    runId: 'harness:payments',
    target: 'plan-approval',
    status: 'done',
    message: 'granted',
    details: ['wrote checkpoint-plan-approval.md.granted'],
  },
  {
    id: 2,
    time: at(11, 59, 40),
    action: 'checkpoint',
    runId: 'tina:auth-feature',
    target: 'team-lead',
    status: 'running',
    message: 'asked the lead to write its handoff',
    progress: { elapsedMs: 42_000, timeoutMs: 300_000, waitingFor: 'handoff.md to be written' },
  },
];

/** The snapshot's own problems (not of a run). */
const PROBLEMS = [{ file: '/home/op/.claude/teams/x/config.json', message: 'not JSON: Unexpected token' }];

const CAPTURE = [
  '\u001b[1m✻ Thinking…\u001b[0m (12s · ↑ 1.2k tokens · esc to interrupt)',
  '',
  '> Implement the session token refresh and its tests',
  '\u001b[32m✓\u001b[0m Read src/auth/session.ts (120 lines)',
  '\u001b[31m✗\u001b[0m npm test: 2 failing',
].join('\n');

const text = (lines: readonly (readonly Segment[])[]) => lines.map((l) => l.map((s) => s.text).join('')).join('\n');

/** A detail pane's content in its frame, titled as the screen titles it. */
function framed(pane: DetailPane, width: number, content: Segment[][], run = tinaRun(), focused = false): string {
  const title = paneSpec(pane).title({ run, problems: PROBLEMS, activity: ACTIVITY });
  return text(framedPane({ title, focused, width, height: HEIGHT, content }));
}

/** Every pane at one width, keyed by the file it is kept in. */
function panes(width: number): Record<string, string> {
  const inner = { width: width - 2, height: HEIGHT - 2 };
  const tina = tinaRun();
  const harness = harnessRun();
  const blocked = blockedRun();
  const snapshot = fixtureSnapshot();
  const look: PaneLook = {
    text: CAPTURE,
    reading: { activity: 'working', cue: 'interrupt-hint' },
    since: NOW,
    movedAt: NOW,
  };
  return {
    runs: text(
      runsPaneLines({
        runs: snapshot.runs,
        total: snapshot.runs.length,
        selectedIndex: 2,
        focused: true,
        filter: '',
        filtering: false,
        contextThreshold: 70,
        width,
        height: HEIGHT,
      }),
    ),
    team: framed(
      'team',
      width,
      teamLines({ run: tina, cursor: 1, focused: true, ...inner, now: NOW, threshold: 70 }),
      tina,
      true,
    ),
    tasks: framed(
      'tasks',
      width,
      tasksLines({ run: tina, stats: taskStats({ run: tina }), cursor: 0, focused: false, ...inner }),
    ),
    gates: framed('gates', width, gatesLines({ run: harness, cursor: 0, focused: false, ...inner, now: NOW }), harness),
    reviews: framed('reviews', width, reviewsLines({ run: tina, cursor: 2, focused: false, ...inner })),
    problems: framed(
      'problems',
      width,
      problemsLines({ run: blocked, problems: PROBLEMS, cursor: 0, focused: false, height: inner.height }),
      blocked,
    ),
    activity: framed(
      'activity',
      width,
      activityLines({ entries: ACTIVITY, cursor: 0, focused: false, height: inner.height }),
    ),
    preview: text(
      previewFrame({
        member: tina.members[0] ?? null,
        hasRun: true,
        host: null,
        look,
        lines: captureLines({ text: CAPTURE, color: false }),
        focused: false,
        scroll: 0,
        width,
        height: HEIGHT,
      }),
    ),
  };
}

describe.each(WIDTHS)('the panes at %i columns', (width) => {
  const drawn = panes(width);
  it.each(Object.keys(drawn))('%s', async (name) => {
    const lines = (drawn[name] ?? '').split('\n');
    expect(lines).toHaveLength(HEIGHT);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
    await expect(`${drawn[name]}\n`).toMatchFileSnapshot(`panes/${name}-${width}.txt`);
  });
});
