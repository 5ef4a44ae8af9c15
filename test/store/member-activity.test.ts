/**
 * A run's status never contradicts its members where its files say nothing newer: a Claude team's
 * files give no status but its tasks', so a member asking makes it waiting, a member working makes
 * it running (also over tasks all done), and a lead waiting at its prompt makes it waiting. A system
 * whose files say a status keeps it.
 */
import { describe, expect, it } from 'vitest';
import type { Member, Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { statusWithActivity } from '../../src/store/member-activity.js';

function member(name: string, activity: Member['activity'], opts: Partial<Member> = {}): Member {
  return { name, role: 'r', model: 'm', paneId: '%1', state: 'alive', lead: false, activity, ...opts };
}

const asking: Member['prompt'] = { question: 'Do you want to proceed?', subject: [], options: [], signature: 's' };

function team(status: Run['status'], taskStatus: string[]): Run {
  const run = emptyRun('claude-team', 'docs-refresh', null, null);
  run.status = status;
  run.tasks = taskStatus.map((s, i) => ({ id: String(i + 1), subject: 't', status: s, owner: null, blockedBy: [] }));
  return run;
}

describe('a run status laid over by its members', () => {
  it('a Claude team reads waiting while a member asks, even with its lead working', () => {
    const members = [member('team-lead', 'working', { lead: true }), member('writer-2', 'waiting', { prompt: asking })];
    expect(statusWithActivity(team('idle', ['pending']), members)).toBe('waiting');
  });

  it('a Claude team reads waiting while a member asks, also with a task in progress', () => {
    const members = [member('team-lead', 'working', { lead: true }), member('writer-2', 'waiting', { prompt: asking })];
    expect(statusWithActivity(team('running', ['in_progress', 'pending']), members)).toBe('waiting');
    expect(statusWithActivity(team('running', ['in_progress']), [member('team-lead', 'working')])).toBe('running');
  });

  it('reads running while a member works, complete tasks or not', () => {
    const members = [member('team-lead', 'working', { lead: true }), member('writer-1', 'idle')];
    expect(statusWithActivity(team('idle', ['pending']), members)).toBe('running');
    expect(statusWithActivity(team('complete', ['completed']), members)).toBe('running');
  });

  it('reads waiting when its lead waits at its prompt, and keeps complete when nobody does anything', () => {
    expect(statusWithActivity(team('complete', ['completed']), [member('team-lead', 'waiting', { lead: true })])).toBe(
      'waiting',
    );
    expect(statusWithActivity(team('complete', ['completed']), [member('team-lead', 'idle', { lead: true })])).toBe(
      'complete',
    );
  });

  it('leaves a status another system writes in its files', () => {
    const run = emptyRun('dotagent', 'wf', null, null);
    run.status = 'complete';
    run.tasks = [{ id: '1', subject: 't', status: 'complete', owner: null, blockedBy: [] }];
    expect(statusWithActivity(run, [member('x', 'working')])).toBe('complete');
  });
});
