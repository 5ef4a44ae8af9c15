/**
 * The team pane's STATE column holds every member state in full, down to the narrowest pane; a member
 * whose request a rule denied shows it, with the rule, for a while.
 */
import { describe, expect, it } from 'vitest';
import { teamLines } from '../../src/ui/panes/team-pane.js';
import { member, tinaRun } from './fixtures.js';

const text = (line: { text: string }[]): string => line.map((s) => s.text).join('');

describe('team pane state column', () => {
  it('reads "? not its pane" in full at 58, 78 and 118 columns', () => {
    const run = tinaRun();
    const taken = member('worker-3', { paneId: '%9', state: 'not-its-pane', notItsPane: 'pane %9 runs another agent' });
    for (const width of [58, 78, 118]) {
      const lines = teamLines({
        run: { ...run, members: [...run.members, taken] },
        cursor: 0,
        focused: true,
        width,
        height: 10,
        now: 0,
        threshold: null,
      }).map(text);
      const row = lines.find((l) => l.includes('worker-3'));
      expect(row).toContain('? not its pane');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
    }
  });
});

describe('team pane activity column', () => {
  it('says how many requests are held for a pane when more than one is, at 78 and 118 columns', () => {
    const run = tinaRun();
    const held = (id: string) => ({
      id,
      hash: null,
      tool: 'Bash',
      subject: 'touch A',
      cut: false,
      whole: 'command: touch A',
      unreadable: null,
      until: '2026-01-01T00:00:00.000Z',
    });
    const asking = member('worker-3', {
      paneId: '%9',
      state: 'alive',
      activity: 'waiting',
      activityCue: 'question',
      held: [held('1-2'), held('1-3')],
    });
    for (const width of [78, 118]) {
      const lines = teamLines({
        run: { ...run, members: [...run.members, asking] },
        cursor: 0,
        focused: true,
        width,
        height: 10,
        now: 0,
        threshold: null,
      }).map(text);
      expect(lines.find((l) => l.includes('worker-3'))).toContain('? 2 held');
    }
  });
});

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
    const asked = (at: number) => ({
      ...worker,
      activityCue: 'question' as const,
      activitySince: new Date(at).toISOString(),
    });
    expect(rows(2_000, asked(1_500))).not.toContain('denied:');
  });

  it('keeps the rule over the question it denied, whose hook said nothing after it', () => {
    const asked = { ...worker, activityCue: 'question' as const, activitySince: new Date(500).toISOString() };
    expect(rows(2_000, asked)).toContain('✗ denied: no rm');
  });
});
