/**
 * The keymap: one table of data. It drives the input router, the footer hints, the `?` overlay and
 * the README key table. Components ask which command a key means; they never compare raw characters.
 */
/* eslint max-lines: "off" -- the table of keys: one entry per command, data read top to bottom, not logic */
import { keyLabel } from './key-name.js';

/** Every command a key can mean. */
export const COMMANDS = [
  'up',
  'down',
  'page-up',
  'page-down',
  'first',
  'last',
  'focus-next',
  'focus-prev',
  'filter',
  'back',
  'help',
  'quit',
  'force-quit',
  'checkpoint',
  'grant',
  'terminate',
  'rehydrate',
  'request',
  'attach',
  'confirm',
  'cancel',
  'accept',
  'dismiss',
  'next-field',
  'read',
  'preview',
  'mute',
  'answer-1',
  'answer-2',
  'answer-3',
  'answer-4',
  'answer-no',
  'send',
  'ended',
] as const;
export type Command = (typeof COMMANDS)[number];

/**
 * Where a binding applies: `global` (no prompt or dialog open), `runs` (the runs list has focus),
 * `pane` (a detail pane has focus), `prompt` (the filter or request prompt), `modal` (a dialog or help).
 */
export const KEY_CONTEXTS = ['global', 'runs', 'pane', 'prompt', 'modal'] as const;
export type KeyContext = (typeof KEY_CONTEXTS)[number];

/** Contexts that are active together; a key may mean only one command within a layer. */
export const KEY_LAYERS: readonly (readonly KeyContext[])[] = [
  ['runs', 'global'],
  ['pane', 'global'],
  ['prompt'],
  ['modal'],
];

/** One row of the table. */
export interface CommandSpec {
  command: Command;
  /** Default keys, in key-spec form: `j`, `X`, `enter`, `shift+tab`, `ctrl+c`. */
  keys: readonly string[];
  /** Short word for the footer. */
  hint: string;
  /** One sentence for the help overlay and the README. */
  description: string;
  contexts: readonly KeyContext[];
  /** Section of the help overlay. */
  group: 'Navigate' | 'Act' | 'Dialogs' | 'General';
}

const ALL: readonly KeyContext[] = KEY_CONTEXTS;

/** The default keymap. */
export const KEYMAP: readonly CommandSpec[] = [
  {
    command: 'up',
    keys: ['k', 'up'],
    hint: 'up',
    description: 'Move the selection up',
    contexts: ['runs', 'pane', 'modal'],
    group: 'Navigate',
  },
  {
    command: 'down',
    keys: ['j', 'down'],
    hint: 'down',
    description: 'Move the selection down',
    contexts: ['runs', 'pane', 'modal'],
    group: 'Navigate',
  },
  {
    command: 'page-up',
    keys: ['pageup', 'ctrl+u'],
    hint: 'page up',
    description: 'Move one page up',
    contexts: ['runs', 'pane', 'modal'],
    group: 'Navigate',
  },
  {
    command: 'page-down',
    keys: ['pagedown', 'ctrl+d'],
    hint: 'page down',
    description: 'Move one page down',
    contexts: ['runs', 'pane', 'modal'],
    group: 'Navigate',
  },
  {
    command: 'first',
    keys: ['home'],
    hint: 'first',
    description: 'Jump to the first row',
    contexts: ['runs', 'pane', 'modal'],
    group: 'Navigate',
  },
  {
    command: 'last',
    keys: ['end', 'G'],
    hint: 'last',
    description: 'Jump to the last row',
    contexts: ['runs', 'pane', 'modal'],
    group: 'Navigate',
  },
  {
    command: 'focus-next',
    keys: ['tab'],
    hint: 'next pane',
    description: 'Focus the next pane',
    contexts: ['global'],
    group: 'Navigate',
  },
  {
    command: 'focus-prev',
    keys: ['shift+tab'],
    hint: 'prev pane',
    description: 'Focus the previous pane',
    contexts: ['global'],
    group: 'Navigate',
  },
  {
    command: 'filter',
    keys: ['/'],
    hint: 'filter',
    description: 'Filter the runs list as you type; Enter keeps the filter, Esc clears it',
    contexts: ['global'],
    group: 'Navigate',
  },
  {
    command: 'read',
    keys: ['v'],
    hint: 'read gate',
    description:
      'Read the selected gate or activity line in full (gates or activity pane), or a held permission ' +
      "request's whole input (its answer dialog: y waits for it when the request's line leaves part out)",
    contexts: ['pane', 'modal'],
    group: 'Navigate',
  },
  {
    command: 'preview',
    keys: ['p'],
    hint: 'preview',
    description: "Focus the live preview of the selected member's pane (else the lead's); j/k and PgUp scroll back",
    contexts: ['global'],
    group: 'Navigate',
  },
  {
    command: 'back',
    keys: ['esc'],
    hint: 'back',
    description: 'Clear the filter, return to the runs list, or cancel a running checkpoint',
    contexts: ['global'],
    group: 'Navigate',
  },
  {
    command: 'checkpoint',
    keys: ['c'],
    hint: 'checkpoint',
    description:
      "Run the checkpoint cycle in the lead's pane; each line is typed only while the pane is at its input box",
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'grant',
    keys: ['g'],
    hint: 'grant',
    description: 'Grant the selected (or first) pending gate',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'terminate',
    keys: ['X'],
    hint: 'terminate',
    description: "Force-terminate the run's live teammates (or the selected member)",
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'rehydrate',
    keys: ['r'],
    hint: 'rehydrate',
    description: 'Clear the lead and type the rehydrate command',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'request',
    keys: ['R'],
    hint: 'request',
    description: 'Open a named checkpoint on a harness run',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'answer-1',
    keys: ['1'],
    hint: 'answer 1',
    description:
      'Answer option 1 of the prompt the selected member (else the first one asking) shows: the ' +
      'dialog shows what is approved; tower checks the prompt again before typing',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'answer-2',
    keys: ['2'],
    hint: 'answer 2',
    description:
      'Answer option 2 of that prompt, as it reads (in Claude Code 2.1.332: yes, and always allow ' +
      'access to the folder)',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'answer-3',
    keys: ['3'],
    hint: 'answer 3',
    description: 'Answer option 3 of that prompt, when it has one',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'answer-4',
    keys: ['4'],
    hint: 'answer 4',
    description: 'Answer option 4 of that prompt, when it has one',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'answer-no',
    keys: ['n'],
    hint: 'no',
    description:
      "Answer the option of that prompt that says No, whatever its number (Claude Code's Bash dialog: 4. No)",
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'send',
    keys: ['s'],
    hint: 'send',
    description:
      'Type a line to the selected member (else the lead) and submit it; refused unless its pane is ' +
      'at its input box (see docs/answering.md)',
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'attach',
    keys: ['a', 'enter'],
    hint: 'attach',
    description: "Attach to the selected member's pane (else the lead's)",
    contexts: ['global'],
    group: 'Act',
  },
  {
    command: 'confirm',
    keys: ['y', 'enter'],
    hint: 'confirm',
    description: 'Confirm the dialog',
    contexts: ['modal'],
    group: 'Dialogs',
  },
  {
    command: 'cancel',
    keys: ['n', 'esc'],
    hint: 'cancel',
    description: 'Cancel the dialog or close the help',
    contexts: ['modal'],
    group: 'Dialogs',
  },
  {
    command: 'accept',
    keys: ['enter'],
    hint: 'accept',
    description: 'Accept the prompt',
    contexts: ['prompt'],
    group: 'Dialogs',
  },
  {
    command: 'dismiss',
    keys: ['esc'],
    hint: 'cancel',
    description: 'Leave the prompt (the filter is cleared)',
    contexts: ['prompt'],
    group: 'Dialogs',
  },
  {
    command: 'next-field',
    keys: ['tab'],
    hint: 'next field',
    description: 'Move to the next field of the prompt',
    contexts: ['prompt'],
    group: 'Dialogs',
  },
  {
    command: 'ended',
    keys: ['E'],
    hint: 'ended',
    description: 'Show or fold the teams that ended (files unchanged for two days, no pane alive), listed last',
    contexts: ['global'],
    group: 'Navigate',
  },
  {
    command: 'mute',
    keys: ['m'],
    hint: 'mute',
    description: 'Mute or unmute notifications (bell, desktop, notify command; the title still counts)',
    contexts: ['global'],
    group: 'General',
  },
  {
    command: 'help',
    keys: ['?'],
    hint: 'help',
    description: 'Show or hide every key',
    contexts: ['global', 'modal'],
    group: 'General',
  },
  {
    command: 'quit',
    keys: ['q'],
    hint: 'quit',
    description: 'Quit tower (the terminal is restored)',
    contexts: ['global'],
    group: 'General',
  },
  {
    command: 'force-quit',
    keys: ['ctrl+c'],
    hint: 'quit',
    description: 'Quit from anywhere, even a prompt or dialog',
    contexts: ALL,
    group: 'General',
  },
];

/** The resolved keymap: command → keys, and per context key → command. */
export interface Bindings {
  keys: Readonly<Record<Command, readonly string[]>>;
  byContext: Readonly<Record<KeyContext, ReadonlyMap<string, Command>>>;
}

/** The command `key` means in `context`, or null. */
export function commandFor(bindings: Bindings, context: KeyContext, key: string): Command | null {
  return bindings.byContext[context].get(key) ?? null;
}

/** The keys of a command as the screen shows them: `j/↓`. */
export function keysLabel(bindings: Bindings, command: Command): string {
  return bindings.keys[command].map(keyLabel).join('/');
}

/**
 * User overrides from the config file: command → keys (replacing that command's defaults). keymap-schema.ts
 * checks them.
 */
export type KeyOverrides = Partial<Record<Command, string[]>>;

/**
 * Builds the bindings from defaults plus overrides already checked for shape (keymap-schema.ts's
 * resolveBindings checks and then calls this), or says which keys would clash.
 */
export function bindingsFrom(
  overrides: KeyOverrides,
): { ok: true; bindings: Bindings } | { ok: false; errors: string[] } {
  const keys = Object.fromEntries(KEYMAP.map((s) => [s.command, overrides[s.command] ?? s.keys])) as Record<
    Command,
    readonly string[]
  >;
  const errors: string[] = [];
  for (const layer of KEY_LAYERS) {
    const seen = new Map<string, Command>();
    for (const spec of KEYMAP) {
      if (!spec.contexts.some((c) => layer.includes(c))) continue;
      for (const key of keys[spec.command]) {
        const other = seen.get(key);
        if (other && other !== spec.command)
          errors.push(`keys: "${key}" would mean both ${other} and ${spec.command} (${layer.join(' + ')})`);
        seen.set(key, spec.command);
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors: [...new Set(errors)] };
  const byContext = Object.fromEntries(
    KEY_CONTEXTS.map((context) => {
      const map = new Map<string, Command>();
      for (const spec of KEYMAP)
        if (spec.contexts.includes(context)) for (const key of keys[spec.command]) map.set(key, spec.command);
      return [context, map];
    }),
  ) as Record<KeyContext, Map<string, Command>>;
  return { ok: true, bindings: { keys, byContext } };
}

/** The default bindings (the table above, no overrides). */
export function defaultBindings(): Bindings {
  const r = bindingsFrom({});
  if (!r.ok) throw new Error(`the default keymap is inconsistent: ${r.errors.join('; ')}`);
  return r.bindings;
}

const CONTEXT_WORDS: Record<KeyContext, string> = {
  global: 'main screen',
  runs: 'runs list',
  pane: 'detail panes',
  prompt: 'prompts',
  modal: 'dialogs, help',
};

/** The README key table (Markdown), generated from the keymap. */
export function keyTableMarkdown(bindings: Bindings = defaultBindings()): string {
  const escape = (s: string) => s.replace(/\|/g, '\\|');
  const rows = KEYMAP.map((s) => {
    const keys = bindings.keys[s.command].map((k) => `\`${escape(keyLabel(k))}\``).join(', ');
    const where =
      s.contexts.length === KEY_CONTEXTS.length ? 'everywhere' : s.contexts.map((c) => CONTEXT_WORDS[c]).join(', ');
    return `| ${keys} | ${s.command} | ${where} | ${escape(s.description)} |`;
  });
  return ['| Keys | Command | Where | What it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** Human words for a context (help overlay). */
export function contextWords(context: KeyContext): string {
  return CONTEXT_WORDS[context];
}
