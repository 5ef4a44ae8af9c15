/**
 * tower reading and answering the real Claude Code 2.1.332's permission dialogs (the harness in
 * test/helpers/claude-cli): the dialog read the same on every capture while the transcript above it
 * blinks, answered at 70 columns where its labels wrap, `n` taking the option that says No, keys
 * never typed into a dialog younger than MIN_DIALOG_AGE_MS, and a teammate's request, drawn in its
 * lead's pane, shown on the teammate and answered where it is drawn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run } from '../../src/model/model.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { readThisBox } from '../../src/store/this-box.js';
import { PaneWatch } from '../../src/store/captures.js';
import { MIN_DIALOG_AGE_MS, readPrompt } from '../../src/store/prompt-reading.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import { startClaude, type ClaudeRun } from '../helpers/claude-cli/launch.js';
import type { Turn } from '../helpers/claude-cli/messages-api.js';
import { askForDialog, bashTurn, startTeam, teamTurns, workerWaiting } from '../helpers/claude-cli/scenarios.js';
import { waitFor } from '../helpers/wait-for.js';

let c: ClaudeRun | null = null;
afterEach(async () => {
  await c?.stop();
  c = null;
});

/** A Bash step the stand-in asks for when the user's message says `run <name>`. */
function bashStep(name: string, file: string): Turn {
  return bashTurn(`run ${name}`, file, { say: `${name}: Bash.` });
}

/** An action world whose tmux is the CLI's own server, and a pane watch on it. */
function world(run: ClaudeRun) {
  const { w, tmux } = actingWorld(run, 'tower-cc-answer-');
  return { w, tmux, watch: new PaneWatch(tmux) };
}

function lead(paneId: string, patch: Partial<Member> = {}): Member {
  return { name: 'team-lead', role: 'team-lead', model: 'm', paneId, state: 'alive', lead: true, team: 't', ...patch };
}

/** The run with the members' activity and prompts laid over it from one capture round, as tower status reads it. */
async function seen(watch: PaneWatch, run: Run): Promise<Run> {
  await watch.round(
    run.members.flatMap((m) => (m.paneId ? [m.paneId] : [])),
    null,
  );
  return new ActivityOverlay(watch).apply(snapshotOf(run)).runs[0]!;
}

// The real CLI starts and asks in each test: on a busy machine that has taken more than 30 s.
describe('the Bash dialog of the real CLI', { timeout: 90_000 }, () => {
  it('reads the same on every capture while the transcript above it blinks; at 70 columns 1 is taken, then n is 4. No', async () => {
    c = await startClaude({
      columns: 70,
      rows: 40,
      script: [bashStep('step one', 'out-a.txt'), bashStep('step two', 'out-b.txt')],
    });
    await askForDialog(c, 'run step one');
    const screens = new Set<string>();
    const signatures = new Set<string>();
    const started = Date.now();
    while (Date.now() - started < 1500) {
      const s = await c.screen();
      screens.add(s);
      signatures.add(readPrompt(s)?.signature ?? 'none');
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(screens.size).toBeGreaterThan(1);
    expect([...signatures]).toHaveLength(1);

    const { w, watch } = world(c);
    const run = { ...emptyRun('claude-team', 'session', c.project, null), members: [lead(c.paneId)] };
    let read = await seen(watch, run);
    expect(read.members[0]?.prompt?.options.map((o) => o.label)).toEqual([
      'Yes',
      `Yes, and always allow access to ${c.project} from this project`,
      'Yes, and switch to auto mode · auto mode handles these prompts for you',
      'No',
    ]);
    w.setSnapshot(snapshotOf(read));
    const one = await runAction(
      w.env,
      planAction(w.env, { kind: 'answer', run: run.id, members: ['team-lead'], choice: '1' }),
    );
    expect(one).toMatchObject({ status: 'done', message: expect.stringContaining('answered 1 (Yes)') });
    await waitFor(() => fs.existsSync(path.join(c!.project, 'out-a.txt')), 20_000, { what: 'the command to run' });

    // Step one's turn ends first: a line typed while the CLI still works is sent with the command's
    // result (the stand-in then no longer reads it as a new ask), as seen on a loaded box.
    await c.waitForScreen('Done.');
    await c.ready();
    await c.submit('run step two');
    await c.waitForScreen(/echo x > out-b\.txt\n╌+\n Do you want to proceed\?/);
    read = await seen(watch, run);
    w.setSnapshot(snapshotOf(read));
    const plan = planAction(w.env, { kind: 'answer', run: run.id, members: ['team-lead'], choice: 'n' });
    expect(plan.title).toContain('→ 4. No');
    const no = await runAction(w.env, plan);
    expect(no).toMatchObject({ status: 'done', message: expect.stringContaining('answered 4 (No)') });
    await c.waitForScreen('What should Claude do instead?');
    expect(fs.existsSync(path.join(c.project, 'out-b.txt'))).toBe(false);
  });

  it(`types into a dialog no sooner than ${MIN_DIALOG_AGE_MS} ms after it was first seen, and the answer is taken`, async () => {
    c = await startClaude({ columns: 120, rows: 40, script: [bashStep('step one', 'out-a.txt')] });
    await c.ready();
    await c.submit('run step one');
    const { w, tmux, watch } = world(c);
    const run = { ...emptyRun('claude-team', 'session', c.project, null), members: [lead(c.paneId)] };
    // The first capture that shows the dialog, and the answer at once.
    const read = await waitFor(async () => {
      const r = await seen(watch, run);
      return r.members[0]?.prompt ? r : null;
    }, 20_000);
    const firstSeen = Date.parse(read.members[0]!.prompt!.since!);
    w.setSnapshot(snapshotOf(read));
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'answer', run: run.id, members: ['team-lead'], choice: '1' }),
    );
    expect(outcome.status).toBe('done');
    const typed = tmux.sent.find((s) => s.args.includes('-l'));
    expect(typed!.at - firstSeen).toBeGreaterThanOrEqual(MIN_DIALOG_AGE_MS);
    await waitFor(() => fs.existsSync(path.join(c!.project, 'out-a.txt')), 20_000, { what: 'the command to run' });
  });
});

describe("a teammate's request, drawn in its lead's pane", { timeout: 90_000 }, () => {
  it("shows on the teammate as its prompt; answer --member worker types 1 into the lead's pane and the teammate goes on", async () => {
    c = await startClaude({
      columns: 120,
      rows: 40,
      args: ['--teammate-mode', 'tmux'],
      script: teamTurns(),
    });
    await startTeam(c);
    const { pane: workerPane } = await workerWaiting(c);

    // Read as `tower status` reads the box: the team file, the lead's pane from its process, the captures.
    const { w } = world(c);
    w.ctx.claudeDir = c.claudeDir;
    w.ctx.env = { ...w.ctx.env, ...c.env, TMUX: '' };
    const box = await readThisBox(w.ctx, { activity: true });
    const read = box.runs.find((r) => r.members.some((m) => m.name === 'worker'))!;
    const run = read;
    const worker = read.members.find((m) => m.name === 'worker')!;
    expect(worker.paneId).toBe(workerPane);
    expect(worker).toMatchObject({ activity: 'waiting', activityCue: 'question' });
    expect(worker.prompt).toMatchObject({
      subject: ['Bash command · from the worker agent', 'Writing out-b.txt', 'echo b > out-b.txt'],
      options: [
        { key: '1', label: 'Yes' },
        { key: '2', label: 'Yes, and switch to auto mode · auto mode handles these prompts for you' },
        { key: '3', label: 'No' },
      ],
      drawnIn: 'team-lead',
    });
    w.setSnapshot(snapshotOf(read));
    const plan = planAction(w.env, { kind: 'answer', run: run.id, members: ['worker'], choice: '1' });
    expect(plan.title).toContain(`worker (drawn in team-lead's pane) of ${run.id} (${c.paneId})`);
    const outcome = await runAction(w.env, plan);
    expect(outcome).toMatchObject({
      status: 'done',
      message: expect.stringContaining("to worker (in team-lead's pane)"),
    });
    await waitFor(() => fs.existsSync(path.join(c!.project, 'out-b.txt')), 15_000, { what: 'the teammate to go on' });
  });
});
