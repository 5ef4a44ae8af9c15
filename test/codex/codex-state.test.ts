/**
 * A Codex agent's state from Codex's own sources, through the real CLI 0.169.0: two Codex panes on
 * one CODEX_HOME (one shared app server) in two folders, each tied to its own thread by its own
 * process (its folder, its start) and read from `thread/list`: one asking, one working, then idle;
 * context and tokens from the rollout the server names; and two Codex panes in one folder, which
 * cannot be told apart, left to their screens with a problem row saying so. One CLI home, one tmux
 * server, shared by the cases in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run, Snapshot } from '../../src/model/model.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { openCodexPane, startCodex, type CodexPane, type CodexRun } from '../helpers/codex-cli/launch.js';
import { DIALOG_QUESTION, escalationTurn, slowTurn } from '../helpers/codex-cli/scenarios.js';
import { waitFor } from '../helpers/wait-for.js';

let c: CodexRun;
let b: CodexPane;
let watch: PaneWatch;
let run: Run;

function member(name: string, paneId: string): Member {
  return { name, role: 'coder', model: 'm', paneId, state: 'alive', lead: name === 'a' };
}

/** One capture round of the run's panes laid over it, as `tower status` reads it. */
async function seen(): Promise<Snapshot> {
  await watch.round(
    run.members.map((m) => m.paneId!),
    null,
  );
  return new ActivityOverlay(watch).apply(snapshotOf(run));
}

/** The first read whose members satisfy `want`. */
function seenWhen(want: (byName: Record<string, Member>, s: Snapshot) => boolean, what: string): Promise<Snapshot> {
  return waitFor(
    async () => {
      const s = await seen();
      const byName = Object.fromEntries(s.runs[0]!.members.map((m) => [m.name, m]));
      return want(byName, s) ? s : null;
    },
    45_000,
    { intervalMs: 200, what },
  );
}

beforeAll(async () => {
  c = await startCodex({
    columns: 100,
    rows: 40,
    script: [
      escalationTurn('make the file', 'touch a.txt', 'Create a.txt outside the sandbox?', {
        input_tokens: 21_000,
        cached_tokens: 9_000,
        output_tokens: 50,
      }),
      slowTurn('take your time', 'Done, slowly.', 6000),
    ],
  });
  await c.ready();
  b = await openCodexPane(c, 'project-b');
  await c.waitForScreen(/← for agents/, 60_000, b.paneId);
  watch = new PaneWatch(c.tmux);
  run = {
    ...emptyRun('claude-team', 'codex-two', c.project, null),
    members: [member('a', c.paneId), member('b', b.paneId)],
  };
}, 120_000);

afterAll(async () => {
  await c?.stop();
});

describe('Codex state from its app server and rollout', { timeout: 90_000 }, () => {
  it('two agents on one app server in two folders: each its own thread, pane and state', async () => {
    await c.submit('make the file');
    await c.waitForScreen(DIALOG_QUESTION, 60_000);
    await c.submit('take your time', b.paneId);
    const s = await seenWhen(
      (m) => m.a?.activitySource === 'app-server' && m.b?.activitySource === 'app-server' && m.b.activity === 'working',
      'a asking and b working, both from the app server',
    );
    const [a, bm] = s.runs[0]!.members;
    expect(a).toMatchObject({ paneId: c.paneId, agent: 'codex', activity: 'waiting', activityCue: 'question' });
    expect(bm).toMatchObject({ paneId: b.paneId, agent: 'codex', activity: 'working', activityCue: 'interrupt-hint' });
    // The dialog is still read whole from the screen, for answering.
    expect(a!.prompt?.subject).toContain('$ touch a.txt');

    // b's turn ends: idle on the server, waiting at its box; a still asks.
    const after = await seenWhen(
      (m) => m.b?.activity === 'waiting' && m.b.activityCue === 'prompt' && m.b.context !== undefined,
      'b waiting at its box once its turn ended, its context known',
    );
    // b's context and tokens, from the rollout the server names for b's thread (not a's).
    const bAfter = after.runs[0]!.members[1]!;
    expect(bAfter.context?.window).toBeGreaterThan(100_000);
    expect(bAfter.tokens!.input + bAfter.tokens!.cacheRead).toBeGreaterThan(0);
    expect(after.runs[0]!.members.map((m) => [m.name, m.activityCue, m.activitySource])).toEqual([
      ['a', 'question', 'app-server'],
      ['b', 'prompt', 'app-server'],
    ]);
    expect(after.problems).toEqual([]);
  });

  it('two agents in one folder on one home cannot be told apart: both are read from their screens, and a row says so', async () => {
    const twin = await openCodexPane(c, null);
    await c.waitForScreen(/← for agents/, 60_000, twin.paneId);
    run = { ...run, members: [...run.members, member('twin', twin.paneId)] };
    const s = await seenWhen(
      (m) => m.a?.activitySource === 'screen' && m.twin?.activitySource === 'screen',
      'a and its twin read from their screens',
    );
    const byName = Object.fromEntries(s.runs[0]!.members.map((m) => [m.name, m]));
    // The screen still shows a's dialog; b, alone in its folder, is still read from the server.
    expect(byName.a).toMatchObject({ activity: 'waiting', activityCue: 'question', activitySource: 'screen' });
    expect(byName.twin).toMatchObject({ agent: 'codex', activitySource: 'screen' });
    expect(byName.b).toMatchObject({ activitySource: 'app-server' });
    expect(s.problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(new RegExp(`panes ${c.paneId}, ${twin.paneId} work in one folder .*read from its screen`)),
    );
  });
});
