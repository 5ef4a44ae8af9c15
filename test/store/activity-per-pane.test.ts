/**
 * What a capture costs the activity overlay, on a real tmux server: a line the previewed pane
 * prints lays over again only the run whose member is in that pane (its other runs keep their
 * objects, their members are not read again); a round of every run still lays every run over.
 * Counted in members read per change (PaneWatch.look calls), never timed.
 */
import os from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Run, Snapshot } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { OTHERS_EVERY, PaneWatch } from '../../src/store/captures.js';
import type { PaneLook } from '../../src/store/captures.js';
import { LocalPaneLooks } from '../../src/store/preview-stream.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

/** A real PaneWatch that counts the looks read: the overlay reads one per member alive it lays over. */
class CountingWatch extends PaneWatch {
  reads = 0;
  /** Times the held requests were read for rows of their own (a read of their folder each). */
  held = 0;
  override unattributedHeld(keys: Iterable<string>): ReturnType<PaneWatch['unattributedHeld']> {
    this.held++;
    return super.unattributedHeld(keys);
  }
  override look(paneId: string, server?: string | null): PaneLook | undefined {
    this.reads++;
    return super.look(paneId, server);
  }
}

const RUNS = 8;
let tmux: TmuxFixture;
let watch: CountingWatch;
let looks: LocalPaneLooks;

beforeEach(async () => {
  tmux = await startTmux();
  watch = new CountingWatch(tmux.client);
  looks = new LocalPaneLooks(watch);
});

afterEach(async () => {
  looks.stream.stop();
  await tmux.kill();
});

/** RUNS teams, each with its lead alive in a shell pane of its own. */
async function teams(): Promise<Snapshot> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const paneId = await tmux.newSession(`t${i}`, os.tmpdir(), 'sh');
    const run = emptyRun('claude-team', `t${i}`, null, null);
    run.members = [{ name: 'lead', role: 'team-lead', model: 'm', paneId, state: 'alive', lead: true }];
    runs.push(run);
  }
  return { version: 1, generatedAt: new Date().toISOString(), runs, problems: [] };
}

const say = (pane: string, text: string) => tmux.client.run(['send-keys', '-t', pane, `echo ${text}`, 'Enter']);
const paneOf = (run: Run) => run.members[0]?.paneId as string;

describe('laying activity over a snapshot as panes are captured', () => {
  it('lays over only the previewed run for each line its pane prints, and every run for a round of every run', async () => {
    const inner = await teams();
    const overlay = new ActivityOverlay(watch);
    // The first tick captures every run's panes.
    await watch.tick(inner, null);
    const before = overlay.apply(inner);
    expect(before.runs.every((r) => r.members[0]?.activitySource === 'screen')).toBe(true);

    // Each change of the captures, as the store's listeners see it: the snapshot read again at once.
    const changes: { reads: number; held: number; snapshot: Snapshot }[] = [];
    watch.subscribe(() => {
      const reads = watch.reads;
      const held = watch.held;
      const snapshot = overlay.apply(inner);
      changes.push({ reads: watch.reads - reads, held: watch.held - held, snapshot });
    });

    const previewed = inner.runs[0] as Run;
    looks.preview(previewed, previewed.members[0] ?? null);
    for (let i = 1; i <= 4; i++) {
      await say(paneOf(previewed), `LINE-${i}`);
      await waitFor(() => watch.look(paneOf(previewed))?.text.includes(`\nLINE-${i}`), 5000, {
        what: `LINE-${i} in the previewed pane's capture`,
      });
    }
    looks.stream.stop();
    // Every line was a change of the captures (the test is not vacuous)…
    expect(changes.length).toBeGreaterThanOrEqual(4);
    // …that read the previewed run's one member, not the other seven runs' (each read all eight before);
    // once the pane reads the same (working, its output moving), more text reads no member at all.
    expect(changes[0]?.reads).toBe(1);
    expect(changes.every((c) => c.reads <= 1)).toBe(true);
    // A change where no member reads otherwise gives the snapshot before it, held requests not read again.
    const textOnly = changes.flatMap((c, i) => (i > 0 && c.reads === 0 ? [{ c, prev: changes[i - 1]! }] : []));
    expect(textOnly.length).toBeGreaterThan(0);
    for (const { c, prev } of textOnly) {
      expect(c.held).toBe(0);
      expect(c.snapshot).toBe(prev.snapshot);
    }
    const after = (changes.at(-1) as { snapshot: Snapshot }).snapshot;
    for (let i = 1; i < RUNS; i++) expect(after.runs[i]).toBe(before.runs[i]);
    // The previewed run still reads what its pane shows.
    expect(after.runs[0]?.members[0]).toMatchObject({ activity: 'working', activityCue: 'output-moving' });

    // Another pane prints; the next round of every run lays every run over (what moves with the clock is read again).
    const other = inner.runs[3] as Run;
    await say(paneOf(other), 'ELSEWHERE');
    await waitFor(async () => (await tmux.client.capturePane(paneOf(other))).includes('\nELSEWHERE'), 5000, {
      what: 'the other pane printing',
    });
    changes.length = 0;
    for (let t = 1; t <= OTHERS_EVERY; t++) await watch.tick(inner, null);
    // (A capture of the previewed pane still under way when its stream stopped may land too: one read at most.)
    const wide = changes.filter((c) => c.reads > 1);
    expect(wide.map((c) => c.reads)).toEqual([RUNS]);
    expect(wide[0]?.snapshot.runs[3]?.members[0]).toMatchObject({ activity: 'working' });
  });
});
