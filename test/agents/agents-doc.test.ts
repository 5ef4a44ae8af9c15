/**
 * docs/agents.md has a section for every registered agent CLI, naming the version its tests pin,
 * and every module's id is one of the contract's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_STATES } from '../../src/agents/hook-states.js';
import { AGENT_CLIS } from '../../src/agents/registry.js';
import { AGENTS } from '../../src/model/values.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const DOC = fs.readFileSync(path.join(REPO, 'docs', 'agents.md'), 'utf8');
const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

/** The text of the `## <label>` section, or null. */
function section(label: string): string | null {
  const start = DOC.indexOf(`\n## ${label}\n`);
  if (start < 0) return null;
  const next = DOC.indexOf('\n## ', start + 4);
  return DOC.slice(start, next < 0 ? undefined : next);
}

describe('docs/agents.md', () => {
  it.each(AGENT_CLIS.map((a) => [a.label, a] as const))('has a section for %s with its pinned version', (_label, a) => {
    const text = section(a.label);
    expect(text, `docs/agents.md has no "## ${a.label}" section`).not.toBeNull();
    expect(text).toContain(`\`${a.tested.pkg}\` ${a.tested.version}`);
    expect(PKG.devDependencies[a.tested.pkg]).toBe(a.tested.version);
  });

  it('finds a missing section', () => {
    expect(section('No Such CLI')).toBeNull();
  });

  it('has no two modules with one id, each id one of the contract', () => {
    const ids = AGENT_CLIS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(AGENTS).toContain(id);
  });
});

describe('the hook states the events reader loads', () => {
  it('are exactly the registered CLIs’ own readings of hook events', () => {
    const registered = AGENT_CLIS.flatMap((a) => (a.hookState ? [a.hookState] : []));
    expect([...HOOK_STATES].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      registered.sort((a, b) => a.name.localeCompare(b.name)),
    );
  });
});
