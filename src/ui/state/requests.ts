/**
 * From what is selected on screen to an ActionRequest (or the reason there is nothing to ask for).
 * Pure: the actions themselves check again and produce the exact plan.
 */
import type { ActionKind, ActionRequest } from '../../kit/types.js';
import type { Gate, Member, Run } from '../../model/model.js';
import { canCheckpoint, grantableGates, liveTeammates, previewMember } from './selectors.js';
import { optionFor } from '../../store/prompt-reading.js';
import { paneRefusal } from '../../store/pane-refusal.js';
import type { PaneId } from './ui-state.js';

/** What the operator is pointing at. */
export interface Selection {
  run: Run | null;
  focus: PaneId;
  /** The member in view: the team pane's cursor while the team or preview pane has focus. */
  member: Member | null;
  /** The selected gate, when the gates pane has focus. */
  gate: Gate | null;
}

/** The member in view: the team cursor's while the team pane, or the preview showing its pane, has focus. */
export function memberInView(focus: PaneId, cursor: Member | null): Member | null {
  if (focus === 'team') return cursor;
  return focus === 'preview' && cursor?.paneId ? cursor : null;
}

/**
 * How an action names a member so that only it fits: its pane id when it has one (a tina run has
 * two `team-lead`s), else its name.
 */
export function memberRef(m: Member): string {
  return m.paneId?.startsWith('%') ? m.paneId : m.name;
}

export type Built = { ok: true; request: ActionRequest } | { ok: false; title: string; reason: string };

const nothing = (title: string, reason: string): Built => ({ ok: false, title, reason });

/**
 * Why no key may act on a member's pane though it has a `%N`, or null: the command line's refusal
 * (actions/targets.ts), said at the key, and the footer does not offer it.
 */
export const paneDoubt = (m: Member): string | null => paneRefusal(m);

/** The request a key asks for, given the selection. `request` (harness) needs its prompt first. */
export function buildRequest(
  kind: Exclude<ActionKind, 'attach' | 'request' | 'answer' | 'send'>,
  sel: Selection,
): Built {
  const run = sel.run;
  if (!run) return nothing(kind, 'no run is selected');
  switch (kind) {
    case 'checkpoint':
    case 'rehydrate':
      if (!canCheckpoint(run)) return nothing(`${kind} ${run.id}`, `${run.id} has no live lead pane to type into`);
      return { ok: true, request: { kind, run: run.id } };
    case 'grant': {
      const gate = sel.gate && sel.gate.state === 'pending' && sel.gate.grantable ? sel.gate : grantableGates(run)[0];
      if (!gate) return nothing(`grant ${run.id}`, `${run.id} has no pending gate tower can grant`);
      return { ok: true, request: { kind, run: run.id, gate: gate.id } };
    }
    case 'terminate': {
      if (sel.member && (!sel.member.paneId || sel.member.state === 'in-process'))
        return nothing(
          `terminate ${sel.member.name}`,
          `${sel.member.name} has no tmux pane of its own (${sel.member.state})`,
        );
      const doubt = sel.member ? paneDoubt(sel.member) : null;
      if (sel.member && doubt !== null) return nothing(`terminate ${sel.member.name}`, doubt);
      if (sel.member) return { ok: true, request: { kind, run: run.id, members: [memberRef(sel.member)] } };
      if (liveTeammates(run).length === 0)
        return nothing(
          `terminate ${run.id}`,
          `${run.id} has no live teammates (a lead is terminated only when selected in the team pane)`,
        );
      return { ok: true, request: { kind, run: run.id, members: [] } };
    }
  }
}

/**
 * Answering option `choice` of a prompt: the selected member's, else the first member of the run
 * whose pane shows one. The prompt seen is sent along: tower refuses if the pane shows another.
 */
export function answerRequest(sel: Selection, choice: string): Built {
  const run = sel.run;
  if (!run) return nothing(`answer ${choice}`, 'no run is selected');
  const m = sel.member ?? run.members.find((x) => x.prompt && x.state === 'alive') ?? null;
  // Nothing to answer: the key says so at once rather than doing nothing.
  if (!m) return nothing(`answer ${run.id}`, `no member of ${run.id} shows a permission prompt or question now`);
  if (!m.prompt) return nothing(`answer ${m.name}`, `${m.name}'s pane shows no permission prompt or question`);
  if (!optionFor(m.prompt, choice)) {
    return nothing(
      `answer ${m.name}`,
      `the prompt has no option ${choice === 'n' ? 'that says No' : choice}: ` +
        `${m.prompt.options.map((o) => `${o.key}. ${o.label}`).join(' / ')}`,
    );
  }
  return {
    ok: true,
    request: { kind: 'answer', run: run.id, members: [memberRef(m)], choice, expect: m.prompt.signature },
  };
}

/** The pane attach and send go to: the member in view's, else the lead's the preview shows. */
export function attachTarget(
  sel: Selection,
):
  | { ok: true; paneId: string; label: string; ref: string; asking: string | null }
  | { ok: false; title: string; reason: string } {
  const run = sel.run;
  if (!run) return { ok: false, title: 'attach', reason: 'no run is selected' };
  const m = sel.member ?? previewMember(run, null, 'runs');
  if (!m)
    return {
      ok: false,
      title: `attach ${run.id}`,
      reason: `${run.id} has no lead with a tmux pane; select a member in the team pane`,
    };
  if (!m.paneId || m.state === 'in-process')
    return { ok: false, title: `attach ${m.name}`, reason: `${m.name} has no tmux pane of its own (${m.state})` };
  if (m.state === 'dead')
    return { ok: false, title: `attach ${m.name}`, reason: `${m.name}'s pane ${m.paneId} is dead` };
  const doubt = paneDoubt(m);
  if (doubt !== null) return { ok: false, title: `attach ${m.name}`, reason: doubt };
  // A pane on a Claude Code swarm server is addressed with its server: `claude-swarm-<pid>/%3`.
  return {
    ok: true,
    paneId: m.tmuxServer ? `${m.tmuxServer}/${m.paneId}` : m.paneId,
    label: `${m.name} ${m.paneId}`,
    ref: memberRef(m),
    // The options of the prompt its pane shows, for a refusal to name.
    asking: m.prompt ? m.prompt.options.map((o) => `${o.key}. ${o.label}`).join(' / ') : null,
  };
}
