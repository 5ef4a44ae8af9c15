/**
 * The one useInput of the app: raw input → key names → the controller. Several characters read at
 * once (fast typing over ssh, tmux send-keys) are several keys, except inside a text prompt.
 */
import type { Key } from 'ink';
import { useInput } from 'ink';
import { useCallback } from 'react';
import type { Controller } from '../controller/controller.js';
import { keyName, splitTyped } from '../input/key-name.js';

/** Routes keys to `controller` while `isActive` (false while the terminal is handed to tmux attach). */
export function useInputRouter(controller: Controller, isActive: boolean, inPrompt: () => boolean): void {
  const onInput = useCallback(
    (input: string, key: Key) => {
      const name = keyName(input, key);
      const plainChunk = name === input && [...input].length > 1;
      if (!plainChunk || inPrompt()) {
        controller.press(name, input);
        return;
      }
      for (const ch of splitTyped(input)) {
        // A prompt may open part-way through the chunk: the rest is typed into it.
        controller.press(ch === ' ' ? 'space' : ch, ch);
      }
    },
    [controller, inPrompt],
  );
  useInput(onInput, { isActive });
}
