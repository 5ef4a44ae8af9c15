/**
 * Every member can be named so that only it fits: a tina run has two `team-lead`s (the
 * orchestrator's and the phase's), and `--member` takes the pane id (`%1`) or the team-qualified
 * name (`phase-2/team-lead`) for every action; a bare name that still fits two members is refused,
 * naming both. `send` without a member types to the lead the checkpoint cycle uses (the phase's).
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction } from '../../src/actions/index.js';
import { memberNamed } from '../../src/actions/member-name.js';
import type { Member, Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf } from './kit.js';

function member(name: string, team: string, paneId: string, lead = false): Member {
  return { name, role: lead ? 'team-lead' : 'tina:implementer', model: 'm', paneId, state: 'alive', lead, team };
}

/** A tina run in phase 2: the orchestrator's team-lead on %0, the phase's team-lead on %1. */
function tina(): Run {
  const run = emptyRun('tina', 'auth', '/nowhere', '/nowhere/.claude/tina');
  run.phase = { current: '2', total: 3, status: 'executing' };
  run.members = [
    member('team-lead', 'auth-orchestration', '%0', true),
    member('team-lead', 'auth-phase-2', '%1', true),
    member('worker-1', 'auth-phase-2', '%2'),
  ];
  return run;
}

/** A Bash dialog as a snapshot reads it from a pane. */
const PROMPT: NonNullable<Member['prompt']> = {
  question: 'Do you want to proceed?',
  subject: ['Bash command', 'npm test'],
  options: [
    { key: '1', label: 'Yes' },
    { key: '2', label: 'No' },
  ],
  signature: 's',
};

const paneOf = (m: Member | { refusal: string }) => ('refusal' in m ? m.refusal : m.paneId);

let w: ActionWorld;
let home: string;
beforeEach(() => {
  home = tempDir('tower-home-');
  w = actionWorld(uniqueSocketName(), home);
  w.setSnapshot(snapshotOf(tina()));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('naming a member', () => {
  it('by pane id, by team-qualified name (whole or its end), or by a bare name the working team settles', () => {
    const run = tina();
    expect(paneOf(memberNamed(run, '%0'))).toBe('%0');
    expect(paneOf(memberNamed(run, '%1'))).toBe('%1');
    expect(paneOf(memberNamed(run, 'phase-2/team-lead'))).toBe('%1');
    expect(paneOf(memberNamed(run, 'auth-phase-2/team-lead'))).toBe('%1');
    expect(paneOf(memberNamed(run, 'orchestration/team-lead'))).toBe('%0');
    // Bare: the phase's lead, the one the checkpoint cycle acts on.
    expect(paneOf(memberNamed(run, 'team-lead'))).toBe('%1');
    expect(paneOf(memberNamed(run, '%9'))).toBe(
      'tina:auth has no member "%9" (members: auth-orchestration/team-lead (%0), auth-phase-2/team-lead (%1), auth-phase-2/worker-1 (%2))',
    );
  });

  it('refuses a bare name that fits two members, naming both', () => {
    const run = tina();
    run.phase = null; // no working team to settle it
    expect(paneOf(memberNamed(run, 'team-lead'))).toBe(
      '"team-lead" fits 2 members of tina:auth: auth-orchestration/team-lead (%0), auth-phase-2/team-lead (%1); name one as TEAM/NAME or by its pane id',
    );
  });

  it('every action takes the qualified name and the pane id', () => {
    for (const who of ['%0', 'orchestration/team-lead']) {
      const send = planAction(w.env, { kind: 'send', run: 'tina:auth', members: [who], text: 'hello' });
      expect(send.refusal).toBeNull();
      expect(send.target).toContain('%0');
      const attach = planAction(w.env, { kind: 'attach', run: 'tina:auth', members: [who] });
      expect(attach.refusal).toBeNull();
      expect(attach.effects.map((e) => e.text).join('\n')).toContain('%0');
      const kill = planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: [who] });
      expect(kill.refusal).toBeNull();
      expect(kill.effects.map((e) => e.text).join('\n')).toContain('-t %0');
      expect(kill.effects.map((e) => e.text).join('\n')).not.toContain('-t %1');
    }
    const asking = tina();
    asking.members[1]!.prompt = PROMPT;
    w.setSnapshot(snapshotOf(asking));
    const answer = planAction(w.env, { kind: 'answer', run: 'tina:auth', members: ['phase-2/team-lead'], choice: '1' });
    expect(answer.refusal).toBeNull();
    expect(answer.target).toContain('%1');
  });

  it('an answer without a member says who is asking', () => {
    const run = tina();
    run.members[2]!.prompt = PROMPT;
    w.setSnapshot(snapshotOf(run));
    expect(planAction(w.env, { kind: 'answer', run: 'tina:auth', choice: '1' }).refusal).toBe(
      'name the member (--member NAME): auth-phase-2/worker-1 (%2) asks "Do you want to proceed?"',
    );
  });

  it('plans say in words what is looked at before and after the effects', () => {
    const send = planAction(w.env, { kind: 'send', run: 'tina:auth', members: ['%2'], text: 'hello' });
    expect(send.effects[0]?.text).toBe(
      "check what %2 shows right before the line is typed: nothing is typed unless it is at its input box (not a dialog, a dialog taller than the pane, a dialog tower cannot read, a half-drawn frame), nor while its session file, tower's hook or its CLI's own server or hook events say it waits for permission",
    );
    const kill = planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: ['%2'] });
    expect(kill.effects.at(-1)?.text).toBe('check that %2 and its processes are gone');
    // No prompt read: nothing was shown to answer.
    expect(planAction(w.env, { kind: 'answer', run: 'tina:auth', members: ['%2'], choice: '1' }).refusal).toBe(
      "worker-1's pane %2 shows no prompt tower read: nothing was shown to answer (look again: tower status)",
    );
    const run = tina();
    run.members[2]!.prompt = PROMPT;
    w.setSnapshot(snapshotOf(run));
    const answer = planAction(w.env, { kind: 'answer', run: 'tina:auth', members: ['%2'], choice: '1' });
    expect(answer.effects[0]?.text).toBe(
      'check what %2 shows first: the answer is typed only while it shows the prompt you saw with option 1, drawn at least 0.6 s ago',
    );
    // What it approves is said whole before anything is typed.
    expect(answer.approves).toEqual([
      'the dialog, line by line as the pane draws it:',
      '  Bash command',
      '  npm test',
      'Do you want to proceed? → 1. Yes',
    ]);
  });

  it('send without a member types to the phase lead, as the checkpoint cycle does', () => {
    const send = planAction(w.env, { kind: 'send', run: 'tina:auth', text: 'hello' });
    expect(send.refusal).toBeNull();
    expect(send.target).toContain('%1');
  });
});
