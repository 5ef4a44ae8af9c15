/**
 * The one useInput of the app: raw input → key names → the controller. A chunk read at once (fast
 * typing over ssh, a paste, tmux send-keys) is split into its keys: typed text goes whole into an
 * open prompt, and one key at a time everywhere else.
 */
import type { Key } from 'ink';
import { useInput } from 'ink';
import { useCallback } from 'react';
import type { Controller } from '../controller/controller.js';
import { keyName, splitChunk } from '../../keys/key-name.js';

/** Routes keys to `controller` while `isActive` (false while the terminal is handed to tmux attach). */
export function useInputRouter(controller: Controller, isActive: boolean, inPrompt: () => boolean): void {
  const onInput = useCallback(
    (input: string, key: Key) => {
      let name = keyName(input, key);
      // No binding uses Alt: ESC followed at once by a key (a fast "Esc, j") is two keys.
      if (key.meta && !key.escape && name !== null) {
        controller.press('esc', '');
        if (name.startsWith('alt+')) name = name.slice('alt+'.length);
        input = name.length === 1 ? name : '';
      }
      if (name !== input || [...input].length <= 1) {
        controller.press(name, input);
        return;
      }
      for (const part of splitChunk(input)) {
        if ('key' in part) controller.press(part.key, '');
        // A prompt may open or close part-way through the chunk: ask again for every part.
        else if (inPrompt()) controller.press(part.text, part.text);
        else for (const ch of part.text) controller.press(ch === ' ' ? 'space' : ch, ch);
      }
    },
    [controller, inPrompt],
  );
  useInput(onInput, { isActive });
}
