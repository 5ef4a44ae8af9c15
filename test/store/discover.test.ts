import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverRoots, findProjectRoot, hasMarker, sourcesOfRoot } from '../../src/store/discover.js';
import { SYSTEM_MODULES } from '../../src/systems/registry.js';
import { buildBox, tempDir } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';

let box: Box | null = null;
const dirs: string[] = [];
afterEach(() => {
  box?.remove();
  box = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

describe('findProjectRoot', () => {
  it('walks up from a deep cwd to the nearest ancestor holding a marker', () => {
    const home = tmp();
    const project = path.join(home, 'code', 'app');
    fs.mkdirSync(path.join(project, '.harness'), { recursive: true });
    const deep = path.join(project, 'src', 'lib', 'util');
    fs.mkdirSync(deep, { recursive: true });
    expect(findProjectRoot(deep, home)).toBe(project);
    expect(findProjectRoot(project, home)).toBe(project);
  });

  it('takes the nearest marker when projects nest', () => {
    const home = tmp();
    const outer = path.join(home, 'mono');
    const inner = path.join(outer, 'packages', 'api');
    fs.mkdirSync(path.join(outer, 'memory', 'state'), { recursive: true });
    fs.mkdirSync(path.join(inner, '.tina'), { recursive: true });
    fs.mkdirSync(path.join(inner, 'src'), { recursive: true });
    expect(findProjectRoot(path.join(inner, 'src'), home)).toBe(inner);
    expect(findProjectRoot(path.join(outer, 'packages'), home)).toBe(outer);
  });

  it("never looks above $HOME's parent", () => {
    const base = tmp();
    // A marker above the home's parent must not be found from inside the home.
    fs.mkdirSync(path.join(base, '.sage', 'state'), { recursive: true });
    const home = path.join(base, 'users', 'me');
    const cwd = path.join(home, 'work');
    fs.mkdirSync(cwd, { recursive: true });
    expect(findProjectRoot(cwd, home)).toBeNull();
    // The home's parent itself is still looked at.
    fs.mkdirSync(path.join(base, 'users', '.harness'));
    expect(findProjectRoot(cwd, home)).toBe(path.join(base, 'users'));
  });

  it('returns null for a relative path or a cwd with no marker above it', () => {
    expect(findProjectRoot('relative/dir', '/home/x')).toBeNull();
    const home = tmp();
    expect(findProjectRoot(home, home)).toBeNull();
  });

  it('counts a file named like a marker as no marker', () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, '.tina'), 'not a dir');
    expect(hasMarker(d)).toBe(false);
  });
});

describe('discoverRoots', () => {
  it('reports explicit roots that are missing or hold no state dir, and keeps the others', () => {
    box = buildBox();
    const missing = path.join(box.dir, 'nope');
    const plain = box.project('docs-site');
    const d = discoverRoots({
      explicitRoots: [box.project('sheets-clone'), missing, plain],
      sessionRoots: [],
      cwds: [],
      home: box.dir,
    });
    expect(d.roots).toEqual([box.project('sheets-clone')]);
    expect(d.problems).toHaveLength(2);
    expect(d.problems[0]?.message).toMatch(/does not exist/);
    expect(d.problems[1]?.message).toMatch(/holds no state directory/);
    expect(d.problems[1]?.message).toContain('.claude/tina');
    // A plain explicit root is still watched, so a marker created later is seen.
    expect(d.watchRoots).toContain(plain);
    expect(d.watchRoots).not.toContain(missing);
  });

  it('finds roots from cwds and registry entries, deduplicated and sorted, skipping registry entries that are gone', () => {
    box = buildBox();
    const d = discoverRoots({
      explicitRoots: [box.project('mixed')],
      sessionRoots: [box.project('auth-flow'), path.join(box.dir, 'cleaned-up-worktree')],
      cwds: [
        path.join(box.project('auth-flow'), 'src'),
        box.project('epic-app'),
        box.project('docs-site'),
        null,
        '',
        box.project('mixed'),
      ],
      home: box.dir,
    });
    expect(d.roots).toEqual([box.project('auth-flow'), box.project('epic-app'), box.project('mixed')]);
    expect(d.problems).toEqual([]);
  });

  it('resolves symlinks so one project reached two ways is one root', () => {
    box = buildBox();
    const link = path.join(box.dir, 'link-to-sheets');
    fs.symlinkSync(box.project('sheets-clone'), link);
    const d = discoverRoots({
      explicitRoots: [link],
      sessionRoots: [],
      cwds: [box.project('sheets-clone')],
      home: box.dir,
    });
    expect(d.roots).toEqual([box.project('sheets-clone')]);
  });
});

describe('sourcesOfRoot', () => {
  it('gives one source per state dir, several systems in one root', () => {
    box = buildBox();
    const sources = sourcesOfRoot(box.project('mixed'), SYSTEM_MODULES);
    expect(sources.map((s) => s.system).sort()).toEqual(['dotagent', 'harness']);
    expect(sources.find((s) => s.system === 'harness')?.stateDir).toBe(path.join(box.project('mixed'), '.harness'));
  });

  it('finds both tina layouts', () => {
    box = buildBox();
    expect(sourcesOfRoot(box.project('auth-flow'), SYSTEM_MODULES)).toEqual([
      {
        system: 'tina',
        root: box.project('auth-flow'),
        stateDir: path.join(box.project('auth-flow'), '.claude', 'tina'),
      },
    ]);
    expect(sourcesOfRoot(box.project('legacy-search'), SYSTEM_MODULES)[0]?.stateDir).toBe(
      path.join(box.project('legacy-search'), '.tina'),
    );
  });
});
