/**
 * docs/development.md says how to add a pane, a key, an agent CLI and a system in a few steps: every file and
 * every name those steps point to exists, so the steps cannot drift from the code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');
const doc = fs.readFileSync(path.join(REPO, 'docs', 'development.md'), 'utf8');
const steps = doc.slice(doc.indexOf('## Adding a pane, a key, an agent CLI or a system'));

describe('docs/development.md, adding a pane, a key, an agent CLI or a system', () => {
  it('has the section', () => {
    expect(steps.startsWith('## Adding a pane, a key, an agent CLI or a system')).toBe(true);
  });

  it('names only files that exist', () => {
    const files = [...steps.matchAll(/`((?:src|test|docs|scripts)\/[^`<>*\s]+)`/g)].map((m) => m[1] ?? '');
    expect(files.length).toBeGreaterThanOrEqual(8);
    expect(files.filter((f) => !fs.existsSync(path.join(REPO, f)))).toEqual([]);
  });

  it('names exports and fields that the files it points to really have', () => {
    const has = (file: string, word: string) => fs.readFileSync(path.join(REPO, file), 'utf8').includes(word);
    expect(has('src/ui/panes/registry.ts', 'export const PANE_SPECS')).toBe(true);
    expect(has('src/keys/keymap.ts', 'export const COMMANDS')).toBe(true);
    expect(has('src/keys/keymap.ts', 'export const KEYMAP')).toBe(true);
    expect(has('src/ui/commands/screen-commands.ts', 'export const SCREEN_COMMANDS')).toBe(true);
    expect(has('src/agents/registry.ts', 'export const AGENT_CLIS')).toBe(true);
    expect(has('src/model/values.ts', 'export const AGENTS')).toBe(true);
    expect(has('src/agents/types.ts', 'atInput(')).toBe(true);
    expect(has('src/agents/types.ts', 'export interface KeyTyping')).toBe(true);
    expect(has('src/agents/types.ts', 'minDialogAgeMs: number')).toBe(true);
    for (const word of ['`keys`', '`minDialogAgeMs`', '`atInput`', '`load`']) expect(steps).toContain(word);
    for (const field of ['id', 'title', 'rows', 'wants', 'topLines', 'slot', 'shown', 'key', 'draw']) {
      expect(steps).toContain(`\`${field}\``);
      expect(has('src/ui/panes/pane-spec.ts', `${field}`)).toBe(true);
    }
    const spec = fs.readFileSync(path.join(REPO, 'src/ui/panes/pane-spec.ts'), 'utf8');
    const body = spec.slice(spec.indexOf('export interface PaneSpec'));
    const fields = [...body.slice(0, body.indexOf('\n}')).matchAll(/^\s+(?:readonly )?(\w+)\??[(:]/gm)].map(
      (m) => m[1],
    );
    // Every field of a pane's record is one the steps explain.
    expect(fields.filter((f) => !steps.includes(`\`${f}\``))).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.docs).toBeTruthy();
  });
});
