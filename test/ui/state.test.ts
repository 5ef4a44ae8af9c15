import { describe, expect, it } from 'vitest';
import type { ActionPlan } from '../../src/kit/types.js';
import type { Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { availableHints, backMeaning } from '../../src/ui/state/available.js';
import type { Situation } from '../../src/ui/state/available.js';
import { NO_DIALOG, dialogReducer } from '../../src/ui/state/dialog-state.js';
import { attachTarget, buildRequest } from '../../src/ui/state/requests.js';
import { SCREEN_COMMANDS, commandWhen } from '../../src/ui/commands/screen-commands.js';
import { canCheckpoint, endedCount, gateCounts, liveTeammates, visibleRuns } from '../../src/ui/state/selectors.js';
import { RunTally } from '../../src/ui/state/tally.js';
import { initialUiState, uiReducer } from '../../src/ui/state/ui-state.js';
import { deriveView } from '../../src/ui/state/view.js';
import { blockedRun, fixtureSnapshot, gate, harnessRun, quietRuns, tinaRun } from './fixtures.js';

describe('selectors', () => {
  it('count checkpoints and approvals amber, escalations red, ignoring granted gates', () => {
    expect(gateCounts(harnessRun())).toEqual({ amber: 1, red: 0 });
    expect(gateCounts(blockedRun())).toEqual({ amber: 0, red: 1 });
    const run = {
      ...harnessRun(),
      gates: [gate('a'), gate('b', { state: 'granted' }), gate('c', { kind: 'approval' })],
    };
    expect(gateCounts(run)).toEqual({ amber: 2, red: 0 });
  });

  it('know who can be checkpointed and terminated', () => {
    expect(canCheckpoint(tinaRun())).toBe(true);
    expect(canCheckpoint(harnessRun())).toBe(false);
    const team = quietRuns()[1];
    expect(team && canCheckpoint(team)).toBe(false); // its lead's pane is dead
    expect(liveTeammates(tinaRun()).map((m) => m.name)).toEqual(['worker-1']);
  });

  it('filter runs case-insensitively on id, name, system and status', () => {
    const runs = fixtureSnapshot().runs;
    expect(visibleRuns(runs, 'AUTH').map((r) => r.id)).toEqual(['tina:auth-feature']);
    expect(visibleRuns(runs, 'blocked').map((r) => r.id)).toEqual(['sage:epic-42']);
    expect(visibleRuns(runs, '')).toBe(runs);
  });
});

describe('ui reducer', () => {
  const ids = fixtureSnapshot().runs.map((r) => r.id);
  it('moves the run selection by id and resets the pane cursors', () => {
    let s = uiReducer(initialUiState(), { type: 'cursor', pane: 'tasks', index: 2 });
    s = uiReducer(s, { type: 'move', pane: 'runs', move: 'down', count: ids.length, page: 3, runIds: ids });
    expect(s.selectedRunId).toBe(ids[1]);
    expect(s.cursors.tasks).toBe(0);
    s = uiReducer(s, { type: 'move', pane: 'runs', move: 'last', count: ids.length, page: 3, runIds: ids });
    expect(s.selectedRunId).toBe(ids[ids.length - 1]);
  });

  it('cycles focus over the focusable panes and remembers the detail tab', () => {
    const panes = ['runs', 'team', 'gates'] as const;
    let s = uiReducer(initialUiState(), { type: 'focus-step', delta: 1, panes });
    expect(s.focus).toBe('team');
    expect(s.tab).toBe('team');
    s = uiReducer(s, { type: 'focus-step', delta: 1, panes });
    s = uiReducer(s, { type: 'focus-step', delta: 1, panes });
    expect(s.focus).toBe('runs');
    expect(s.tab).toBe('gates');
    expect(uiReducer(s, { type: 'focus-step', delta: -1, panes }).focus).toBe('gates');
  });

  it('keeps the filter on accept and clears it on dismiss', () => {
    let s = uiReducer(initialUiState(), { type: 'filter-open' });
    s = uiReducer(s, { type: 'filter-text', text: 'auth' });
    const kept = uiReducer(s, { type: 'filter-accept', firstId: 'tina:auth-feature' });
    expect(kept).toMatchObject({ filtering: false, filter: 'auth', selectedRunId: 'tina:auth-feature', focus: 'runs' });
    expect(uiReducer(s, { type: 'filter-clear' })).toMatchObject({ filtering: false, filter: '' });
  });
});

describe('dialog reducer', () => {
  const plan: ActionPlan = {
    request: { kind: 'grant', run: 'x' },
    run: null,
    title: 't',
    effects: [],
    refusal: null,
    destructive: true,
  };
  it('queues dialogs behind the open one and drops a straggler offer wherever it waits', () => {
    let s = dialogReducer(NO_DIALOG, { type: 'open', dialog: { kind: 'confirm', plan, scroll: 0 } });
    s = dialogReducer(s, { type: 'open', dialog: { kind: 'offer-terminate', offerId: 7, runId: 'x', alive: ['w'] } });
    expect(s.current?.kind).toBe('confirm');
    expect(s.queue).toHaveLength(1);
    s = dialogReducer(s, { type: 'drop-offer', offerId: 7 });
    expect(s.queue).toHaveLength(0);
    s = dialogReducer(s, { type: 'close' });
    expect(s.current).toBeNull();
  });

  it('edits the request prompt field by field', () => {
    let s = dialogReducer(NO_DIALOG, {
      type: 'open',
      dialog: { kind: 'request', runId: 'h', field: 'name', name: '', message: '' },
    });
    s = dialogReducer(s, { type: 'type', text: 'db-migrat' });
    s = dialogReducer(s, { type: 'type', text: 'ex' });
    s = dialogReducer(s, { type: 'erase' });
    s = dialogReducer(s, { type: 'next-field' });
    s = dialogReducer(s, { type: 'type', text: 'why' });
    expect(s.current).toMatchObject({ kind: 'request', name: 'db-migrate', message: 'why', field: 'message' });
  });
});

describe('requests from the selection', () => {
  const base = { focus: 'runs' as const, member: null, gate: null };
  it('grant takes the selected pending grantable gate, else the first one', () => {
    const run = { ...harnessRun(), gates: [gate('done', { state: 'granted' }), gate('a'), gate('b')] };
    expect(buildRequest('grant', { ...base, run })).toEqual({
      ok: true,
      request: { kind: 'grant', run: run.id, gate: 'a' },
    });
    expect(buildRequest('grant', { ...base, run, gate: run.gates[2] ?? null })).toMatchObject({
      request: { gate: 'b' },
    });
    expect(buildRequest('grant', { ...base, run: blockedRun() })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no pending gate'),
    });
  });

  it('terminate takes the live teammates, or the member selected in the team pane', () => {
    const run = tinaRun();
    expect(buildRequest('terminate', { ...base, run })).toEqual({
      ok: true,
      request: { kind: 'terminate', run: run.id, members: [] },
    });
    const lead = run.members[0] ?? null;
    // Named by its pane id: a tina run has two team-leads.
    expect(buildRequest('terminate', { ...base, focus: 'team', run, member: lead })).toMatchObject({
      request: { members: [lead?.paneId] },
    });
    expect(buildRequest('terminate', { ...base, run: harnessRun() }).ok).toBe(false);
  });

  it('attach goes to the selected member, else the lead', () => {
    const run = tinaRun();
    expect(attachTarget({ ...base, run })).toMatchObject({ ok: true, paneId: '%3' });
    expect(attachTarget({ ...base, run, member: run.members[1] ?? null })).toMatchObject({ ok: true, paneId: '%4' });
    expect(attachTarget({ ...base, run: harnessRun() }).ok).toBe(false);
  });
});

describe('footer hints', () => {
  const situation = (patch: Partial<Situation>): Situation => {
    const snap = fixtureSnapshot([tinaRun(), harnessRun()]);
    return {
      view: deriveView(snap, [], initialUiState()),
      focus: 'runs',
      help: false,
      dialog: null,
      filtering: false,
      filter: '',
      cancellable: false,
      ...patch,
    };
  };
  it('offer checkpoint and attach for a live lead, grant only with a grantable gate', () => {
    const words = availableHints(situation({})).map((h) => h.command);
    expect(words).toEqual(expect.arrayContaining(['checkpoint', 'terminate', 'rehydrate', 'attach', 'help', 'quit']));
    expect(words).not.toContain('grant');
    expect(words).not.toContain('request');
    const harness = deriveView(fixtureSnapshot([harnessRun()]), [], initialUiState());
    const h = availableHints(situation({ view: harness })).map((x) => x.command);
    expect(h).toEqual(expect.arrayContaining(['grant', 'request']));
    expect(h).not.toContain('checkpoint');
  });

  it('offer a command exactly when its key would act, for every command and selection', () => {
    const snap = fixtureSnapshot([tinaRun(), harnessRun()]);
    const views = [
      deriveView(snap, [], initialUiState()),
      deriveView(fixtureSnapshot([harnessRun()]), [], initialUiState()),
    ];
    // The tina run's team: the lead, a worker, a dead worker and an in-process reviewer (no pane of its own).
    const selections = views.flatMap((view) =>
      (['runs', 'team', 'gates', 'activity'] as const).flatMap((focus) =>
        (view.run?.members.length ? view.run.members : [null]).map((member) => ({ view: { ...view, member }, focus })),
      ),
    );
    for (const { view, focus } of selections) {
      const offered = new Set(availableHints(situation({ view, focus })).map((h) => h.command));
      const sel = {
        view,
        run: view.run,
        focus,
        member: focus === 'team' ? view.member : null,
        gate: view.gate,
        filter: '',
        cancellable: false,
        muted: false,
      };
      for (const [command, spec] of Object.entries(SCREEN_COMMANDS)) {
        if ('routed' in spec || spec.footer === null) continue;
        expect(offered.has(command as never), `${command} with ${focus} ${view.member?.name ?? ''}`).toBe(
          commandWhen(sel, command as never)?.ok,
        );
      }
    }
  });

  it('refuse terminate for a selected member without a pane of its own, and do not offer it', () => {
    const run = tinaRun();
    const view = { ...deriveView(fixtureSnapshot([run]), [], initialUiState()), member: run.members[3] ?? null };
    expect(availableHints(situation({ view, focus: 'team' })).map((h) => h.command)).not.toContain('terminate');
    const verdict = SCREEN_COMMANDS.terminate;
    expect(
      'routed' in verdict
        ? null
        : verdict.when({
            view,
            run,
            focus: 'team',
            member: view.member,
            gate: null,
            filter: '',
            cancellable: false,
            muted: false,
          }),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no tmux pane of its own'),
    });
  });

  it('offer neither X, s nor a for a member whose pane is unknown or not its own, and say why at the key', () => {
    const run = tinaRun();
    const worker = run.members[1];
    if (!worker?.paneId) throw new Error('the fixture has a worker with a pane');
    const doubts = [
      { ...worker, state: 'not-its-pane' as const, notItsPane: 'pane %4 works in /elsewhere' },
      { ...worker, state: 'unknown' as const },
      { ...worker, state: 'unknown' as const, tmuxServerUnknown: 'pane %4 is on two servers' },
    ];
    for (const m of doubts) {
      const members = run.members.map((x) => (x === worker ? m : x));
      const shown = { ...run, members };
      const view = { ...deriveView(fixtureSnapshot([shown]), [], initialUiState()), member: m };
      const offered = availableHints(situation({ view, focus: 'team' })).map((h) => h.command);
      expect(offered).not.toContain('terminate');
      expect(offered).not.toContain('send');
      expect(offered).not.toContain('attach');
      const sel = {
        view,
        run: shown,
        focus: 'team' as const,
        member: m,
        gate: null,
        filter: '',
        cancellable: false,
        muted: false,
      };
      for (const command of ['terminate', 'send', 'attach'] as const) {
        const spec = SCREEN_COMMANDS[command];
        const verdict = 'routed' in spec ? null : spec.when(sel);
        expect(verdict, `${command} for ${m.state}`).toMatchObject({
          ok: false,
          reason: m.tmuxServerUnknown
            ? m.tmuxServerUnknown
            : m.state === 'unknown'
              ? expect.stringContaining('unknown state')
              : expect.stringContaining('not its pane: pane %4 works in /elsewhere'),
        });
      }
    }
  });

  it('say what Esc does now', () => {
    expect(backMeaning({ focus: 'tasks', filter: '', cancellable: true })).toBe('back');
    expect(backMeaning({ focus: 'runs', filter: 'x', cancellable: true })).toBe('clear filter');
    expect(backMeaning({ focus: 'runs', filter: '', cancellable: true })).toBe('cancel checkpoint');
    expect(backMeaning({ focus: 'runs', filter: '', cancellable: false })).toBeNull();
  });

  it('show only dialog keys while a dialog is open', () => {
    const plan: ActionPlan = {
      request: { kind: 'grant', run: 'x' },
      run: null,
      title: 't',
      effects: [],
      refusal: null,
      destructive: true,
    };
    expect(availableHints(situation({ dialog: { kind: 'confirm', plan, scroll: 0 } })).map((h) => h.command)).toEqual([
      'confirm',
      'cancel',
    ]);
    expect(availableHints(situation({ filtering: true })).map((h) => h.command)).toEqual(['accept', 'dismiss']);
  });
});

describe('teams that ended', () => {
  const ended = (name: string) => ({
    ...harnessRun(),
    id: `claude-team:${name}`,
    name,
    system: 'claude-team' as const,
    gates: [],
    ended: true,
  });
  const runs = [...fixtureSnapshot().runs, ended('old-1'), ended('old-2')];

  it('are folded off the end of the list, listed by the toggle, and found by a filter', () => {
    expect(visibleRuns(runs, '', false).map((r) => r.id)).toEqual(fixtureSnapshot().runs.map((r) => r.id));
    expect(visibleRuns(runs, '', true)).toBe(runs);
    expect(visibleRuns(runs, 'old-2', false).map((r) => r.id)).toEqual(['claude-team:old-2']);
    const shown = uiReducer(initialUiState(), { type: 'toggle-ended' });
    expect(shown.showEnded).toBe(true);
    expect(uiReducer(shown, { type: 'toggle-ended' }).showEnded).toBe(false);
    expect(deriveView({ ...fixtureSnapshot(), runs }, [], initialUiState()).runs).toHaveLength(runs.length - 2);
    expect(deriveView({ ...fixtureSnapshot(), runs }, [], shown).runs).toHaveLength(runs.length);
  });
});

describe('a tally over the runs', () => {
  it('gives the sum of a fresh walk after every kind of change, working out only the runs that are other objects', () => {
    const asked: string[] = [];
    const tally = new RunTally((r) => {
      asked.push(r.id);
      return r.problems.length;
    });
    const run = (id: string, problems: number): Run => ({
      ...emptyRun('claude-team', id, `/p/${id}`, null),
      problems: Array.from({ length: problems }, () => ({ file: null, message: 'x' })),
    });
    let runs: Run[] = Array.from({ length: 50 }, (_, i) => run(`r${i}`, i % 3));
    const fresh = (rs: readonly Run[]) => rs.reduce((n, r) => n + r.problems.length, 0);
    expect(tally.sum(runs)).toBe(fresh(runs));
    asked.length = 0;
    // One run changed in place: only it is asked.
    runs = runs.map((r, i) => (i === 7 ? run('r7', 9) : r));
    expect(tally.sum(runs)).toBe(fresh(runs));
    expect(asked).toEqual([runs[7]!.id]);
    // Reordered, grown, shrunk: still the fresh sum.
    runs = [...runs].reverse();
    expect(tally.sum(runs)).toBe(fresh(runs));
    runs = [...runs, run('new', 4)];
    expect(tally.sum(runs)).toBe(fresh(runs));
    runs = runs.slice(10);
    expect(tally.sum(runs)).toBe(fresh(runs));
    asked.length = 0;
    expect(tally.sum(runs)).toBe(fresh(runs));
    expect(asked).toEqual([]);
  });

  it('counts the ended teams at the end of the list, also when a list is in another order', () => {
    const team = (id: string, ended: boolean): Run => ({ ...emptyRun('claude-team', id, `/p/${id}`, null), ended });
    const sorted = [team('a', false), team('b', false), team('c', true), team('d', true)];
    expect(endedCount(sorted)).toBe(2);
    expect(endedCount([team('x', true), team('y', false), team('z', true)])).toBe(1);
    expect(endedCount([team('x', true), team('y', true)])).toBe(2);
    expect(endedCount([])).toBe(0);
  });
});
