/**
 * Key names: the one place raw terminal input becomes a name the keymap understands
 * (`j`, `X`, `enter`, `esc`, `shift+tab`, `ctrl+c`, `pageup`).
 */
import type { Key } from 'ink';

/** Named keys a binding may use, besides single characters and ctrl+/alt+ combinations. */
export const NAMED_KEYS = [
  'up',
  'down',
  'left',
  'right',
  'pageup',
  'pagedown',
  'home',
  'end',
  'enter',
  'esc',
  'tab',
  'shift+tab',
  'backspace',
  'delete',
  'space',
] as const;

const NAMED = new Set<string>(NAMED_KEYS);

/** Whether `spec` is a valid key for a binding. */
export function isKeySpec(spec: string): boolean {
  if (NAMED.has(spec)) return true;
  if (/^(ctrl|alt)\+[a-z]$/.test(spec)) return true;
  // One printable character, not a space (that is `space`).
  return [...spec].length === 1 && /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(spec);
}

/** The name of one keypress as ink reports it, or null for input that is no key (e.g. empty). */
export function keyName(input: string, key: Key): string | null {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.return) return 'enter';
  if (key.escape) return 'esc';
  if (key.backspace) return 'backspace';
  if (key.delete) return 'delete';
  if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
  if (key.meta && input.length === 1) return `alt+${input}`;
  if (input === ' ') return 'space';
  if (input === '\n') return 'enter';
  if (input.length > 0) return input;
  return null;
}

const LABELS: Record<string, string> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
  enter: 'Enter',
  esc: 'Esc',
  tab: 'Tab',
  'shift+tab': 'Shift-Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  space: 'Space',
};

/** How a key is shown on screen and in the README: `Enter`, `Shift-Tab`, `Ctrl-C`, `j`. */
export function keyLabel(spec: string): string {
  const named = LABELS[spec];
  if (named) return named;
  const combo = /^(ctrl|alt)\+(.)$/.exec(spec);
  if (combo) return `${combo[1] === 'ctrl' ? 'Ctrl' : 'Alt'}-${(combo[2] ?? '').toUpperCase()}`;
  return spec;
}

const CONTROL_KEYS: Record<string, string> = {
  '\t': 'tab',
  '\r': 'enter',
  '\n': 'enter',
  '\u007f': 'backspace',
  '\b': 'backspace',
  '\u001b': 'esc',
};

/** A piece of a chunk of input: a control key by name, or a run of typed text. */
export type ChunkPart = { key: string } | { text: string };

/**
 * Splits a chunk read at once (fast typing over ssh, a paste, tmux send-keys) into control keys
 * and runs of text, in order: `"ab\tcd\r"` → text `ab`, tab, text `cd`, enter. Other control
 * characters are dropped.
 */
export function splitChunk(input: string): ChunkPart[] {
  const parts: ChunkPart[] = [];
  let text = '';
  for (const ch of input) {
    const key = CONTROL_KEYS[ch];
    if (key === undefined && ch >= ' ') {
      text += ch;
      continue;
    }
    if (text) parts.push({ text });
    text = '';
    if (key) parts.push({ key });
  }
  if (text) parts.push({ text });
  return parts;
}
