/**
 * The one useInput of the app: raw input → key names → the model's update. A chunk read at once (fast
 * typing over ssh, a paste, tmux send-keys) is split into its keys: typed text goes whole into an
 * open prompt, and one key at a time everywhere else.
 */
import type { Key } from 'ink';
import { useInput } from 'ink';
import { useCallback } from 'react';
import { keyName, splitChunk } from '../../keys/key-name.js';

/** What a key is handed to: its name (or null) and its raw text. */
export type Press = (key: string | null, raw: string) => void;

/** Routes keys to `press` while `isActive` (false while the terminal is handed to tmux attach). */
export function useInputRouter(press: Press, isActive: boolean, inPrompt: () => boolean): void {
  const onInput = useCallback(
    (input: string, key: Key) => {
      let name = keyName(input, key);
      // No binding uses Alt: ESC followed at once by a key (a fast "Esc, j") is two keys.
      if (key.meta && !key.escape && name !== null) {
        press('esc', '');
        if (name.startsWith('alt+')) name = name.slice('alt+'.length);
        input = name.length === 1 ? name : '';
      }
      if (name !== input || [...input].length <= 1) {
        press(name, input);
        return;
      }
      for (const part of splitChunk(input)) {
        if ('key' in part) press(part.key, '');
        // A prompt may open or close part-way through the chunk: ask again for every part.
        else if (inPrompt()) press(part.text, part.text);
        else for (const ch of part.text) press(ch === ' ' ? 'space' : ch, ch);
      }
    },
    [press, inPrompt],
  );
  useInput(onInput, { isActive });
}
