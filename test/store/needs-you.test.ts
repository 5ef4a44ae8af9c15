/** "Needs you" is counted one way: the header and `status` text give the same number for the same snapshot. */
import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../src/commands/status-text.js';
import type { Member, Run, Snapshot } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { countNeedingYou, runNeedsYou } from '../../src/store/needs-you.js';
import { headerLine } from '../../src/ui/components/chrome.js';

function gated(
  name: string,
  kind: 'checkpoint' | 'escalation' | 'context' | 'approval',
  state: 'pending' | 'granted' = 'pending',
): Run {
  const run = emptyRun('harness', name, `/p/${name}`, null);
  run.gates = [{ id: kind, kind, state, since: null, grantable: kind !== 'context', title: kind, file: null }];
  return run;
}

function snapshot(): Snapshot {
  const blocked = emptyRun('tina', 'stuck', '/p/stuck', null);
  blocked.status = 'blocked';
  const waiting = emptyRun('claude-team', 'asks', null, null);
  waiting.members = [
    {
      name: 'lead',
      role: 'team-lead',
      model: 'm',
      paneId: '%1',
      state: 'alive',
      lead: true,
      activity: 'waiting',
    } as Member,
  ];
  const working = emptyRun('claude-team', 'busy', null, null);
  working.members = [
    {
      name: 'lead',
      role: 'team-lead',
      model: 'm',
      paneId: '%2',
      state: 'alive',
      lead: true,
      activity: 'working',
    } as Member,
  ];
  const runs = [
    gated('a', 'checkpoint'),
    gated('b', 'escalation'),
    gated('c', 'context'),
    gated('d', 'approval'),
    gated('e', 'checkpoint', 'granted'),
    blocked,
    waiting,
    working,
    emptyRun('sage', 'quiet', '/p/q', null),
  ];
  return { version: 1, generatedAt: '', runs, problems: [] };
}

describe('needs you', () => {
  it('counts a pending gate of any kind, a blocked run, and a member waiting', () => {
    const s = snapshot();
    expect(s.runs.filter(runNeedsYou).map((r) => r.name)).toEqual(['a', 'b', 'c', 'd', 'stuck', 'asks']);
    expect(countNeedingYou(s)).toBe(6);
  });

  it('the header and status text say the same number', () => {
    const s = snapshot();
    const header = headerLine({ snapshot: s, width: 120, readonly: false, loading: false, muted: false })
      .map((seg) => seg.text)
      .join('');
    expect(header).toContain('6 need you');
    expect(formatStatus(s, { color: false, now: 0 }).split('\n')[0]).toBe('9 runs, 6 waiting for a human');
  });
});
