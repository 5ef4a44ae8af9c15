/**
 * Checks the `keys` section of the config file. Apart from the keymap so that a start with no key
 * overrides never loads the validator.
 */
import { z } from 'zod';
import { nearWord } from '../text/near-word.js';
import { isKeySpec } from './key-name.js';
import { COMMANDS, bindingsFrom, type Bindings } from './keymap.js';

const KeySpecSchema = z.string().refine(isKeySpec, {
  message: 'is not a key (use a character, or up, down, enter, esc, tab, shift+tab, pageup, ctrl+x, …)',
});

/** User overrides from the config file: command → keys (replacing that command's defaults). */
export const KeyOverridesSchema = z.partialRecord(z.enum(COMMANDS), z.array(KeySpecSchema).min(1));

/** One wrong entry of `keys`, naming it: a key that is no command names the command it is nearest. */
function issueText(i: z.core.$ZodIssue): string {
  if (i.code === 'unrecognized_keys' || (i.code === 'invalid_key' && i.path.length > 0)) {
    const words = i.code === 'unrecognized_keys' ? i.keys : [String(i.path[i.path.length - 1])];
    return words
      .map((w) => {
        const near = nearWord(w, COMMANDS);
        return `keys: "${w}" is no command${near ? `; did you mean "${near}"?` : " (the README's key table lists them)"}`;
      })
      .join('; ');
  }
  return `keys.${i.path.join('.') || '(top level)'}: ${i.message}`;
}

/** Builds the bindings from defaults plus overrides, or says what is wrong (unknown command, bad key, conflict). */
export function resolveBindings(
  overrides: unknown = {},
): { ok: true; bindings: Bindings } | { ok: false; errors: string[] } {
  const parsed = KeyOverridesSchema.safeParse(overrides ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map(issueText),
    };
  }
  return bindingsFrom(parsed.data);
}
