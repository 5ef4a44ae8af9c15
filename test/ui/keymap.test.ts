import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, KEYMAP, commandFor, defaultBindings, keyTableMarkdown, keysLabel } from '../../src/keys/keymap.js';
import { resolveBindings } from '../../src/keys/keymap-schema.js';
import { currentKeyTable, withKeyTable } from '../../src/ui/keys-doc.js';
import { isKeySpec, keyLabel } from '../../src/keys/key-name.js';

describe('keymap table', () => {
  it('has exactly one row per command, each with keys, a hint and a description', () => {
    expect(KEYMAP.map((s) => s.command).sort()).toEqual([...COMMANDS].sort());
    for (const spec of KEYMAP) {
      expect(spec.keys.length, spec.command).toBeGreaterThan(0);
      expect(spec.hint.length, spec.command).toBeGreaterThan(0);
      expect(spec.description.length, spec.command).toBeGreaterThan(10);
      for (const k of spec.keys) expect(isKeySpec(k), `${spec.command}: ${k}`).toBe(true);
    }
  });

  it('gives the documented default keys', () => {
    const b = defaultBindings();
    const expected: Record<string, string[]> = {
      checkpoint: ['c'],
      grant: ['g'],
      terminate: ['X'],
      rehydrate: ['r'],
      request: ['R'],
      attach: ['a', 'enter'],
      'focus-next': ['tab'],
      'focus-prev': ['shift+tab'],
      filter: ['/'],
      back: ['esc'],
      help: ['?'],
      quit: ['q'],
    };
    for (const [command, keys] of Object.entries(expected))
      expect(b.keys[command as keyof typeof b.keys]).toEqual(keys);
    expect(b.keys.down).toEqual(expect.arrayContaining(['j', 'down']));
    expect(b.keys.up).toEqual(expect.arrayContaining(['k', 'up']));
  });

  it('resolves keys per context: Enter attaches on the main screen, confirms in a dialog, accepts in a prompt', () => {
    const b = defaultBindings();
    expect(commandFor(b, 'global', 'enter')).toBe('attach');
    expect(commandFor(b, 'modal', 'enter')).toBe('confirm');
    expect(commandFor(b, 'prompt', 'enter')).toBe('accept');
    expect(commandFor(b, 'runs', 'j')).toBe('down');
    expect(commandFor(b, 'prompt', 'j')).toBeNull();
  });
});

describe('user key overrides', () => {
  it('replace the keys of the commands they name', () => {
    const r = resolveBindings({ grant: ['G', 'ctrl+g'], last: ['end'] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(commandFor(r.bindings, 'global', 'G')).toBe('grant');
    expect(commandFor(r.bindings, 'global', 'g')).toBeNull();
    expect(keysLabel(r.bindings, 'grant')).toBe('G/Ctrl-G');
  });

  it('refuse unknown commands, bad keys and empty lists, naming the key', () => {
    const unknown = resolveBindings({ launch: ['l'] });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.errors.join(' ')).toMatch(/launch|keys/);
    const bad = resolveBindings({ grant: ['hyper+x'] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.join(' ')).toContain('keys.grant');
    expect(resolveBindings({ grant: [] }).ok).toBe(false);
    expect(resolveBindings('not an object').ok).toBe(false);
  });

  it('refuse a key that would mean two commands where both apply', () => {
    // G is "last" in the runs list; as grant it would never be reached there.
    const r = resolveBindings({ grant: ['G'] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatch(/"G" would mean both/);
    // y confirms in dialogs only, so it may mean something else on the main screen.
    expect(resolveBindings({ checkpoint: ['y'] }).ok).toBe(true);
  });
});

describe('README key table', () => {
  it('lists every command with its keys', () => {
    const table = keyTableMarkdown();
    for (const spec of KEYMAP) expect(table).toContain(`| ${spec.command} |`);
    expect(table).toContain('`Shift-Tab`');
    expect(table.split('\n')[0]).toBe('| Keys | Command | Where | What it does |');
  });

  it('in README.md is the generated one (run `npm run docs` when this fails)', () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    expect(currentKeyTable(readme)).toBe(keyTableMarkdown());
  });

  it('is written between the markers, leaving the rest of the README alone', () => {
    const out = withKeyTable('# t\n\nbefore\n<!-- keys:start -->\nold\n<!-- keys:end -->\nafter\n', '| a |');
    expect(out).toBe('# t\n\nbefore\n<!-- keys:start -->\n| a |\n<!-- keys:end -->\nafter\n');
    expect(() => withKeyTable('no markers')).toThrow(/keys:start/);
  });

  it('labels keys the way the screen shows them', () => {
    expect(['enter', 'esc', 'shift+tab', 'ctrl+c', 'up', 'j'].map(keyLabel)).toEqual([
      'Enter',
      'Esc',
      'Shift-Tab',
      'Ctrl-C',
      '↑',
      'j',
    ]);
  });
});
