/**
 * Key translation, pure: (state, key) → what it means. The router tries, in order, force-quit,
 * the open dialog or help, the open prompt, the focused pane, then global keys.
 */
import type { Bindings, Command } from '../../keys/keymap.js';
import { commandFor } from '../../keys/keymap.js';
import { paneSpec } from '../panes/registry.js';
import { isMove } from '../state/moves.js';
import type { PaneId } from '../state/ui-state.js';

export { isMove, moveIndex, MOVES } from '../state/moves.js';
export type { Move } from '../state/moves.js';

/** A focused pane's key: a command of that pane (a cursor move, `read`), else null (on to global keys). */
export function translatePaneKey(bindings: Bindings, pane: PaneId, key: string): Command | null {
  const command = commandFor(bindings, pane === 'runs' ? 'runs' : 'pane', key);
  if (!command) return null;
  if (isMove(command)) return command;
  // Any other pane key means something only in a pane that owns it (its record's commands).
  return pane !== 'runs' && paneSpec(pane).commands?.[command] ? command : null;
}

/** A global key (no dialog or prompt open). */
export function translateGlobalKey(bindings: Bindings, key: string): Command | null {
  return commandFor(bindings, 'global', key);
}

/** A key in a dialog or the help overlay. */
export function translateModalKey(bindings: Bindings, key: string): Command | null {
  return commandFor(bindings, 'modal', key);
}

/** What a key does in a text prompt: a prompt command, typed text, erasing, or nothing. */
export type PromptInput = { command: Command } | { text: string } | { erase: true } | null;

/** A key (and its raw text) in a text prompt. Unbound printable input is typed. */
export function translatePromptKey(bindings: Bindings, key: string | null, raw: string): PromptInput {
  if (key !== null) {
    const command = commandFor(bindings, 'prompt', key);
    if (command) return { command };
    if (key === 'backspace' || key === 'delete') return { erase: true };
    if (key === 'space') return { text: ' ' };
  }
  // Printable text only: no control characters or escape sequences reach a prompt.
  const text = [...raw].filter((ch) => /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}\p{M}]$/u.test(ch)).join('');
  return text.length > 0 && !(key?.startsWith('ctrl+') ?? false) && !(key?.startsWith('alt+') ?? false)
    ? { text }
    : null;
}

/** Whether a key forces quitting wherever input is. */
export function isForceQuit(bindings: Bindings, key: string | null): boolean {
  return key !== null && bindings.keys['force-quit'].includes(key);
}
