/**
 * What the live store says changed (store/delta.ts) is what walking both snapshots finds: watch's
 * events, the needs-you count and notices come out the same from the delta as from the walk, through
 * the activity overlay as the control room and `tower watch` read it.
 */
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { diffSnapshots } from '../../src/commands/watch-events.js';
import type { Snapshot } from '../../src/model/model.js';
import { NoticeLog } from '../../src/notify/notices.js';
import { deltaFrom } from '../../src/store/delta.js';
import { createWatchedStore } from '../../src/store/live-activity.js';
import { countNeedingYou } from '../../src/store/needs-you.js';
import type { SnapshotStore } from '../../src/store/types.js';
import { buildBox, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let box: Box | null = null;
let store: SnapshotStore | null = null;

afterEach(async () => {
  await store?.stop();
  box?.remove();
  box = store = null;
});

/** The same snapshot with nothing recorded beside it: consumers walk it. */
const bare = (s: Snapshot): Snapshot => ({ ...s, runs: [...s.runs] });

it('gives the same events, counts and notices as walking both snapshots, change after change', async () => {
  box = buildBox();
  const b = box;
  const ctx = testContext({
    claudeDir: b.claudeDir,
    roots: b.roots,
    socketName: uniqueSocketName(),
    home: b.dir,
    config: { pollIntervalMs: 100 },
  });
  const s = createWatchedStore(ctx).store;
  store = s;
  await s.start();
  let prev = s.getSnapshot();
  const walked = new NoticeLog();
  const told = new NoticeLog();
  walked.baseline(bare(prev));
  told.baseline(prev);
  let withDelta = 0;
  const problems: string[] = [];
  s.subscribe(() => {
    const next = s.getSnapshot();
    if (next === prev) return;
    if (deltaFrom(prev, next)) withDelta++;
    const fast = JSON.stringify(diffSnapshots(prev, next, 't'));
    const slow = JSON.stringify(diffSnapshots(bare(prev), bare(next), 't'));
    if (fast !== slow) problems.push(`events: ${fast} vs ${slow}`);
    if (countNeedingYou(next) !== countNeedingYou(bare(next)))
      problems.push(`needs-you: ${countNeedingYou(next)} vs ${countNeedingYou(bare(next))}`);
    const a = JSON.stringify(told.news(next));
    const w = JSON.stringify(walked.news(bare(next)));
    if (a !== w) problems.push(`notices: ${a} vs ${w}`);
    prev = next;
  });

  const tasks = path.join(b.claudeDir, 'tasks', 'docs-sweep');
  const team = (name: string, status: string) =>
    writeFile(path.join(tasks, '1.json'), { id: '1', subject: name, status, blockedBy: [] });
  team('first change', 'in_progress');
  await waitFor(() => s.getSnapshot().runs.some((r) => r.tasks.some((t) => t.subject === 'first change')), 5000, {
    what: 'the first change',
  });
  team('second change', 'completed');
  await waitFor(() => s.getSnapshot().runs.some((r) => r.tasks.some((t) => t.subject === 'second change')), 5000, {
    what: 'the second change',
  });
  // A team that comes, with a gate-free blocked task, and goes again.
  writeFile(path.join(b.claudeDir, 'teams', 'late', 'config.json'), {
    name: 'late',
    leadAgentId: 'w',
    members: [{ name: 'w', agentType: 'team-lead', model: 'm' }],
  });
  await waitFor(() => s.getSnapshot().runs.some((r) => r.id === 'claude-team:late'), 5000, { what: 'the new team' });
  writeFile(path.join(b.claudeDir, 'tasks', 'late', '1.json'), {
    id: '1',
    subject: 'stuck',
    status: 'in_progress',
    blockedBy: ['9'],
  });
  await waitFor(() => s.getSnapshot().runs.find((r) => r.id === 'claude-team:late')?.tasks.length === 1, 5000, {
    what: 'its task',
  });

  expect(problems).toEqual([]);
  // The changes went through the delta, not the walk.
  expect(withDelta).toBeGreaterThanOrEqual(3);
});
