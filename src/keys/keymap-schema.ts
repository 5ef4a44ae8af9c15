/**
 * Checks the `keys` section of the config file. Apart from the keymap so that a start with no key
 * overrides never loads the validator.
 */
import { z } from 'zod';
import { isKeySpec } from './key-name.js';
import { COMMANDS, bindingsFrom, type Bindings } from './keymap.js';

const KeySpecSchema = z.string().refine(isKeySpec, {
  message: 'is not a key (use a character, or up, down, enter, esc, tab, shift+tab, pageup, ctrl+x, …)',
});

/** User overrides from the config file: command → keys (replacing that command's defaults). */
export const KeyOverridesSchema = z.partialRecord(z.enum(COMMANDS), z.array(KeySpecSchema).min(1));

/** Builds the bindings from defaults plus overrides, or says what is wrong (unknown command, bad key, conflict). */
export function resolveBindings(
  overrides: unknown = {},
): { ok: true; bindings: Bindings } | { ok: false; errors: string[] } {
  const parsed = KeyOverridesSchema.safeParse(overrides ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => `keys.${i.path.join('.') || '(top level)'}: ${i.message}`),
    };
  }
  return bindingsFrom(parsed.data);
}
