/**
 * How often the screen counts time: the team pane's "working 9s" moves every second while a member of
 * the run shown has been in its state for under a minute, and every minute once its age reads in
 * minutes; the gates pane likewise for a gate under two minutes old.
 */
import { describe, expect, it } from 'vitest';
import type { Member } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { gatesResolution, teamResolution } from '../../src/ui/screen-blocks.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

function runWith(sinces: (string | null)[]) {
  const run = emptyRun('claude-team', 'docs-refresh', null, null);
  run.members = sinces.map((since, i): Member => ({
    name: `m${i}`,
    role: 'r',
    model: 'm',
    paneId: `%${i}`,
    state: 'alive',
    lead: i === 0,
    activity: 'working',
    activitySince: since,
  }));
  return run;
}

describe('the clock the panes count with', () => {
  it('ticks each second while a member has been in its state under a minute', () => {
    expect(teamResolution(runWith([iso(5 * 60_000), iso(9_000)]), NOW)).toBe(1000);
    expect(teamResolution(runWith([iso(59_000)]), NOW)).toBe(1000);
  });

  it('ticks each minute once every age reads in minutes, or nothing is shown', () => {
    expect(teamResolution(runWith([iso(61_000), iso(3_600_000)]), NOW)).toBe(60_000);
    expect(teamResolution(runWith([null]), NOW)).toBe(60_000);
    expect(teamResolution(null, NOW)).toBe(60_000);
  });

  it('ticks each second for a gate under two minutes old', () => {
    const run = runWith([]);
    run.gates = [
      { id: 'g', kind: 'approval', state: 'pending', since: iso(30_000), grantable: true, title: 't', file: null },
    ];
    expect(gatesResolution(run, NOW)).toBe(1000);
    run.gates[0]!.since = iso(10 * 60_000);
    expect(gatesResolution(run, NOW)).toBe(60_000);
  });
});
