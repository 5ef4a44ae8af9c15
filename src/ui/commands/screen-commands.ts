/**
 * Every command, one spec each: when it applies to what is selected (ok with the footer's word, or
 * the reason it is refused) and what it does. The keymap (keymap.ts) gives each command its keys
 * and help text; this record, which the compiler checks covers every command, gives the rest, so
 * the footer, the refusals and the handler can't disagree.
 */
import { runsOf, systemOf } from '../../systems/registry.js';
import type { Command } from '../../keys/keymap.js';
import type { PaneAct } from '../panes/pane-spec.js';
import { PANE_SPECS, paneSpec } from '../panes/registry.js';
import type { DialogAction } from '../state/dialog-state.js';
import type { Effect } from '../model/effect.js';
import { answerRequest, attachTarget, buildRequest } from '../state/requests.js';
import type { Selection } from '../state/requests.js';
import type { PaneId, UiAction } from '../state/ui-state.js';
import type { ScreenView } from '../state/view.js';

/** What is selected, plus what the global commands look at. */
export interface ScreenSelection extends Selection {
  view: ScreenView;
  filter: string;
  /** Whether a running checkpoint can be cancelled with Esc. */
  cancellable: boolean;
  muted: boolean;
  /** Whether actions are refused (--readonly): keys that prompt for text say so before it is typed. */
  readonly?: boolean;
}

/** Whether a command applies now: ok with the footer's word, or why not (an empty reason: silently nothing). */
export type Verdict = { ok: true; label: string } | { ok: false; title: string; reason: string };

/** What a handler may do: change the screen or its dialogs, and ask for effects (update's step). */
export interface CommandDeps {
  ui(action: UiAction): void;
  dialog(action: DialogAction): void;
  effect(effect: Effect): void;
}

/** A command of the main screen; `footer` says in which group of the footer it is offered. */
export interface ScreenCommand {
  footer: 'act' | 'nav' | null;
  when(s: ScreenSelection): Verdict;
  run(s: ScreenSelection, d: CommandDeps): void;
}

/** Commands the router handles before the main screen: list moves, dialogs and prompts. */
export type RoutedCommand = { routed: 'move' | 'dialog' | 'prompt' | 'anywhere' };

/** Why a key that would prompt for text does nothing under --readonly: said before anything is typed. */
const READ_ONLY_KEYS = 'read-only mode (tower was started with --readonly): no action runs';

/** The panes that own `read` (their rows are read whole with v), as a refusal names them. */
const READERS = PANE_SPECS.filter((p) => p.commands?.read)
  .map((p) => p.id)
  .join(' or ');

const ok = (label: string): Verdict => ({ ok: true, label });
const no = (title: string, reason: string): Verdict => ({ ok: false, title, reason });
const always = (label: string) => () => ok(label);

/** What Esc does outside dialogs and prompts: clear the filter, go back to the runs list, or cancel. */
export function backMeaning(
  s: Pick<ScreenSelection, 'filter' | 'focus' | 'cancellable'>,
): 'clear filter' | 'back' | 'cancel checkpoint' | null {
  if (s.focus !== 'runs') return 'back';
  if (s.filter !== '') return 'clear filter';
  if (s.cancellable) return 'cancel checkpoint';
  return null;
}

/** An action that goes through planning and a confirm dialog. */
function planned(
  kind: 'checkpoint' | 'grant' | 'terminate' | 'rehydrate',
  label: (s: ScreenSelection) => string,
): ScreenCommand {
  return {
    footer: 'act',
    when: (s) => {
      const built = buildRequest(kind, s);
      return built.ok ? ok(label(s)) : no(built.title, built.reason);
    },
    run: (s, d) => {
      const built = buildRequest(kind, s);
      if (built.ok) d.effect({ kind: 'ask', request: built.request });
    },
  };
}

/** Answering an option of the prompt a member's pane shows, through the confirm dialog. */
function answer(choice: string): ScreenCommand {
  return {
    footer: 'act',
    when: (s) => {
      const built = answerRequest(s, choice);
      // Offered in the footer only while a prompt is there; a press without one says why.
      return built.ok ? ok(choice === 'n' ? 'answer No' : `answer ${choice}`) : no(built.title, built.reason);
    },
    run: (s, d) => {
      const built = answerRequest(s, choice);
      if (built.ok) d.effect({ kind: 'ask', request: built.request });
    },
  };
}

const focusStep = (delta: 1 | -1) => (s: ScreenSelection, d: CommandDeps) =>
  d.ui({ type: 'focus-step', delta, panes: s.view.focusable as PaneId[] });

/** The spec of every command. */
export const SCREEN_COMMANDS: { readonly [C in Command]: ScreenCommand | RoutedCommand } = {
  up: { routed: 'move' },
  down: { routed: 'move' },
  'page-up': { routed: 'move' },
  'page-down': { routed: 'move' },
  first: { routed: 'move' },
  last: { routed: 'move' },
  confirm: { routed: 'dialog' },
  cancel: { routed: 'dialog' },
  accept: { routed: 'prompt' },
  dismiss: { routed: 'prompt' },
  'next-field': { routed: 'prompt' },
  'force-quit': { routed: 'anywhere' },
  checkpoint: planned('checkpoint', () => 'checkpoint'),
  grant: planned('grant', () => 'grant'),
  terminate: planned('terminate', (s) => (s.member ? `terminate ${s.member.name}` : 'terminate')),
  rehydrate: planned('rehydrate', () => 'rehydrate'),
  'answer-1': answer('1'),
  'answer-2': answer('2'),
  'answer-3': answer('3'),
  'answer-4': answer('4'),
  'answer-no': answer('n'),
  send: {
    footer: 'act',
    when: (s) => {
      const t = attachTarget(s);
      if (!t.ok) return no(t.title.replace('attach', 'send'), t.reason);
      if (s.readonly) return no(`send ${t.label}`, READ_ONLY_KEYS);
      // Known before a line is typed: a pane at a question takes an answer (1, 2…), not a line.
      if (t.asking) return no(`send ${t.label}`, `${t.label} shows a question: answer it first (${t.asking})`);
      return ok('send');
    },
    run: (s, d) => {
      const t = attachTarget(s);
      if (t.ok && s.run)
        d.dialog({
          type: 'open',
          dialog: { kind: 'send', runId: s.run.id, member: t.label, ref: t.ref, text: '' },
        });
    },
  },
  request: {
    footer: 'act',
    when: (s) => {
      if (!s.run) return no('request', 'no run is selected');
      if (!systemOf(s.run.system).requests)
        return no(
          `request ${s.run.id}`,
          `named checkpoints are requested on ${runsOf((m) => m.requests !== null)}; ${s.run.id} is a ` +
            `${s.run.system} run`,
        );
      if (s.readonly) return no(`request ${s.run.id}`, READ_ONLY_KEYS);
      return ok('request');
    },
    run: (s, d) => {
      if (s.run)
        d.dialog({
          type: 'open',
          dialog: { kind: 'request', runId: s.run.id, field: 'name', name: '', message: '' },
        });
    },
  },
  // Read only where a pane owns it (its record's commands): elsewhere it says where.
  read: {
    footer: 'act',
    when: () => no('read', `v reads a row in full in the ${READERS} pane: focus it (Tab)`),
    run: () => {},
  },
  attach: {
    footer: 'act',
    when: (s) => {
      const t = attachTarget(s);
      return t.ok ? ok('attach') : no(t.title, t.reason);
    },
    run: (s, d) => {
      const t = attachTarget(s);
      if (t.ok) d.effect({ kind: 'attach', paneId: t.paneId, label: t.label, runId: s.run?.id ?? null });
    },
  },
  'focus-next': { footer: 'nav', when: always('panes'), run: focusStep(1) },
  'focus-prev': { footer: null, when: always('prev pane'), run: focusStep(-1) },
  preview: {
    footer: null,
    when: (s) => (s.focus === 'preview' ? no('preview', '') : ok('preview')),
    run: (_s, d) => d.ui({ type: 'focus', pane: 'preview' }),
  },
  filter: { footer: 'nav', when: always('filter'), run: (_s, d) => d.ui({ type: 'filter-open' }) },
  back: {
    footer: 'nav',
    when: (s) => {
      const meaning = backMeaning(s);
      return meaning ? ok(meaning) : no('back', '');
    },
    run: (s, d) => {
      const meaning = backMeaning(s);
      if (meaning === 'back') d.ui({ type: 'focus', pane: 'runs' });
      else if (meaning === 'clear filter') d.ui({ type: 'filter-clear' });
      else if (meaning === 'cancel checkpoint') d.effect({ kind: 'cancel-running' });
    },
  },
  ended: {
    footer: null,
    when: (s) =>
      s.view.ended > 0
        ? ok('ended teams')
        : no(
            'ended teams',
            'no team has ended: a team ends when its files are unchanged for two days and no member has a live pane',
          ),
    run: (_s, d) => d.ui({ type: 'toggle-ended' }),
  },
  mute: {
    footer: null,
    when: (s) => ok(s.muted ? 'unmute' : 'mute'),
    run: (_s, d) => d.effect({ kind: 'toggle-mute' }),
  },
  help: { footer: 'nav', when: always('help'), run: (_s, d) => d.ui({ type: 'help', open: true }) },
  quit: { footer: 'nav', when: always('quit'), run: (_s, d) => d.effect({ kind: 'quit' }) },
};

/**
 * The focused pane's own command (its record's `commands`), when that pane owns `command`: what it
 * does now, or null for nothing. undefined: the pane does not own it (the screen's command applies).
 */
export function paneAct(s: Pick<ScreenSelection, 'focus' | 'view'>, command: Command): PaneAct | null | undefined {
  if (s.focus === 'runs') return undefined;
  const own = paneSpec(s.focus).commands?.[command];
  return own?.({ ...s.view.data, cursor: s.view.cursors[s.focus] });
}

/** Whether `command` acts now: the focused pane's own when it owns it, else the screen's; null: routed elsewhere. */
export function commandWhen(s: ScreenSelection, command: Command): Verdict | null {
  const own = paneAct(s, command);
  if (own !== undefined) return own ? ok(own.label) : no(command, '');
  return screenCommand(command)?.when(s) ?? null;
}

/** The spec of a main-screen command, or null for one the router handles elsewhere. */
export function screenCommand(command: Command): ScreenCommand | null {
  const spec = SCREEN_COMMANDS[command];
  return 'routed' in spec ? null : spec;
}

/** The main screen's footer hints: actions that apply, then navigation, in the record's order. */
export function screenHints(s: ScreenSelection): { command: Command; label: string }[] {
  const out: { command: Command; label: string }[] = [];
  for (const group of ['act', 'nav'] as const) {
    for (const [command, spec] of Object.entries(SCREEN_COMMANDS) as [Command, ScreenCommand | RoutedCommand][]) {
      if ('routed' in spec || spec.footer !== group) continue;
      const v = commandWhen(s, command);
      if (v?.ok) out.push({ command, label: v.label });
    }
  }
  return out;
}
