/**
 * The fixture box (test/fixtures/box): a whole machine, a Claude config dir and project roots of
 * every system. `buildBox()` copies it to a fresh temp dir and replaces `@BOX@` with that dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeAfterFile } from './leftovers.js';

export const BOX_SOURCE = fileURLToPath(new URL('../fixtures/box', import.meta.url));

export interface Box {
  /** The box's absolute path (realpath, as tmux reports pane cwds). */
  dir: string;
  claudeDir: string;
  /** `<dir>/projects/<name>`. */
  project(name: string): string;
  /** Every project root that holds a state dir (what `--root` would name). */
  roots: string[];
  /** Removes the box. */
  remove(): void;
}

/** Projects in the box that hold state directories. */
export const BOX_PROJECTS = ['auth-flow', 'legacy-search', 'sheets-clone', 'epic-app', 'wf-auth', 'mixed'] as const;

function fill(dir: string, box: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) fill(p, box);
    else {
      const text = fs.readFileSync(p, 'utf8');
      if (text.includes('@BOX@')) fs.writeFileSync(p, text.replaceAll('@BOX@', box));
    }
  }
}

/** Copies the box into a new temp dir (or `into`) with `@BOX@` filled in. */
export function buildBox(into?: string): Box {
  const dir = fs.realpathSync(into ?? removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-box-'))));
  fs.cpSync(BOX_SOURCE, dir, { recursive: true });
  fill(dir, dir);
  const project = (name: string) => path.join(dir, 'projects', name);
  return {
    dir,
    claudeDir: path.join(dir, 'claude'),
    project,
    roots: BOX_PROJECTS.map(project),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh empty temp dir (realpath). */
export function tempDir(prefix = 'tower-test-'): string {
  return removeAfterFile(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix))));
}

/** Writes a file, creating its folders. */
export function writeFile(file: string, content: string | object): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}
