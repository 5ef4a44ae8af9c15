/** The fixture files under test/fixtures: reading them, and copying them into temp dirs that each test removes. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { tempDir } from './box.js';

/** test/fixtures, absolute. */
export const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));

/** The real tina handoffs (paths under test/fixtures): the January shape, the current shape, the plan shape. */
export const HANDOFF_FIXTURES = [
  'samples/tina/handoff.skill-2026-01-26.md',
  'samples/tina/handoff.skill-head.md',
  'tina/handoff.seed-003.md',
];

/** A fixture file's text, by its path under test/fixtures. */
export function readFixture(rel: string): string {
  return fs.readFileSync(path.join(FIXTURES, rel), 'utf8');
}

/**
 * Temp dirs for the tests of a file: the returned function makes one, and every dir made during a
 * test is removed after it (an afterEach of the calling file).
 */
export function tempDirsPerTest(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = tempDir(prefix);
    made.push(dir);
    return dir;
  };
}

/** Copies the fixture folder `rel` to `<into>/<its name>` and returns that path. */
export function copyFixture(rel: string, into: string): string {
  const dest = path.join(into, path.basename(rel));
  fs.cpSync(path.join(FIXTURES, rel), dest, { recursive: true });
  return dest;
}

/** Copies the fixture folder `rel` to `dest`, putting `root` where the files say FIXTURE_ROOT. */
export function copyFixtureTree(rel: string, dest: string, root: string): void {
  copyTree(path.join(FIXTURES, rel), dest, root);
}

function copyTree(src: string, dest: string, root: string): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    const to = path.join(dest, entry.name);
    if (entry.isDirectory()) copyTree(from, to, root);
    else fs.writeFileSync(to, fs.readFileSync(from, 'utf8').replaceAll('FIXTURE_ROOT', root));
  }
}

/** Sets a file's modification (and access) time, epoch ms. */
export function setMtime(file: string, ms: number): void {
  fs.utimesSync(file, new Date(ms), new Date(ms));
}

/**
 * Makes every member of every team under `claudeDir` join now, keeping each file's date: a fixture's
 * `joinedAt` is from the day it was captured, and a pane started since then is another agent's
 * (store/pane-evidence.ts). Called after a test started the panes its teams' files name.
 */
export function joinedNow(claudeDir: string): void {
  const teams = path.join(claudeDir, 'teams');
  for (const name of fs.readdirSync(teams)) {
    const file = path.join(teams, name, 'config.json');
    if (!fs.existsSync(file)) continue;
    const st = fs.statSync(file);
    let json: { members?: { joinedAt?: number }[] };
    try {
      json = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof json;
    } catch {
      continue;
    }
    for (const m of json.members ?? []) if (m && typeof m === 'object') m.joinedAt = Date.now();
    fs.writeFileSync(file, JSON.stringify(json, null, 2));
    fs.utimesSync(file, st.atime, st.mtime);
  }
}
