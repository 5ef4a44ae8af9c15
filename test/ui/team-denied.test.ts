/** A member whose request a rule denied shows it in the team pane, with the rule, for a while. */
import { describe, expect, it } from 'vitest';
import { teamLines } from '../../src/ui/panes/team-pane.js';
import { member, tinaRun } from './fixtures.js';

const text = (line: { text: string }[]): string => line.map((s) => s.text).join('');

describe('team pane: denied by rule', () => {
  const run = tinaRun();
  const worker = member('worker-3', { paneId: '%9', activity: 'waiting', activityCue: 'prompt' });
  const rows = (now: number, m = worker) =>
    teamLines({
      run: { ...run, members: [...run.members, m] },
      cursor: 0,
      focused: true,
      width: 118,
      height: 10,
      now,
      threshold: null,
      denied: new Map([[`${run.id}/worker-3`, { rule: 'no rm', at: 1_000 }]]),
    })
      .map(text)
      .find((l) => l.includes('worker-3'));

  it('says the rule in the doing column for ten minutes', () => {
    expect(rows(2_000)).toContain('✗ denied: no rm');
    expect(rows(1_000 + 11 * 60_000)).not.toContain('denied:');
  });

  it('gives way to a question the member asks again', () => {
    expect(rows(2_000, { ...worker, activityCue: 'question' })).not.toContain('denied:');
  });
});
