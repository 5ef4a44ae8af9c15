/**
 * docs/systems.md is where a newcomer learns what tower reads and how a system plugs in: it has a
 * section for every registered system, and every source file it names is there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_MODULES } from '../../src/systems/registry.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const doc = fs.readFileSync(path.join(REPO, 'docs', 'systems.md'), 'utf8');

describe('docs/systems.md', () => {
  it('has a section under "Per system" for every registered system, headed with its name', () => {
    const perSystem = doc.slice(doc.indexOf('## Per system'), doc.indexOf('\n## ', doc.indexOf('## Per system') + 1));
    const headed = [...perSystem.matchAll(/^### .*\(`([^`]+)`\)$/gm)].map((m) => m[1]);
    expect(headed.sort()).toEqual(SYSTEM_MODULES.map((m) => m.system).sort());
  });

  it("names every folder under src/systems/, each system's source", () => {
    const folders = fs
      .readdirSync(path.join(REPO, 'src', 'systems'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.length).toBeGreaterThanOrEqual(SYSTEM_MODULES.length);
    expect(folders.filter((f) => !doc.includes(`\`src/systems/${f}/\``))).toEqual([]);
  });

  it('names only source and test files that exist', () => {
    const named = [...doc.matchAll(/`((?:src|test|docs|scripts)\/[^`<>*\s]+)`/g)].map((m) => m[1] ?? '');
    expect(named.length).toBeGreaterThan(10);
    const missing = named.filter((p) => !fs.existsSync(path.join(REPO, p.replace(/\/$/, ''))));
    expect(missing).toEqual([]);
  });

  it('lists the registry, the contract list and the registry test where it says what a new system takes', () => {
    const adding = doc.slice(doc.indexOf('## Adding a system'), doc.indexOf('## Per system'));
    for (const file of ['src/systems/registry.ts', 'src/model/values.ts', 'test/systems/registry.test.ts'])
      expect(adding).toContain(`\`${file}\``);
  });
});
