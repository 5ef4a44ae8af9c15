/**
 * Discovery: which project roots hold agent state, and which state directories (one per system) each holds.
 * Roots come from flags/config (taken as given), from the root registries systems keep, and from the working
 * directories of tmux panes and Claude team members (walked up to the nearest ancestor with a marker).
 * Only marker directories are ever looked at: a project tree is never read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Problem, System } from '../model/model.js';
import { isDir } from '../files/look.js';
import type { SystemModule } from '../systems/module.js';
import { stateDirMarkers } from '../systems/registry.js';

/** One state directory to read as one run. */
export interface RunSource {
  system: System;
  root: string;
  stateDir: string;
}

/** Where discovery looks, beyond the explicit roots. */
export interface DiscoveryInput {
  /** Roots from --root and the config file: each must exist and hold a marker, else a problem. */
  explicitRoots: readonly string[];
  /** Project roots named by the systems' root registries (worktree paths). */
  sessionRoots: readonly string[];
  /** Working directories of tmux panes and of Claude team members. */
  cwds: readonly (string | null | undefined)[];
  /** $HOME: walking up never goes above its parent. Defaults to os.homedir(). */
  home?: string | undefined;
}

export interface Discovery {
  /** Roots holding at least one state directory, sorted. */
  roots: string[];
  /**
   * Directories worth watching for a marker to appear: the roots, plus explicit and registry
   * roots that exist but hold no marker yet. Sorted.
   */
  watchRoots: string[];
  problems: Problem[];
}

/** The marker directory names, for messages. */
export const MARKER_NAMES = [...new Set(stateDirMarkers().map((m) => m.dir))];

/** A path made canonical (symlinks resolved) when it exists, so one project is one root. */
export function canonical(p: string): string {
  const abs = path.resolve(p);
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return abs;
  }
}

/** Whether `dir` holds any state directory marker. */
export function hasMarker(dir: string): boolean {
  return MARKER_NAMES.some((m) => isDir(path.join(dir, m)));
}

/**
 * The nearest ancestor of `cwd` (itself included) that holds a marker, or null.
 * Stops before `/` and, for paths under $HOME's parent, never goes above that parent.
 */
export function findProjectRoot(cwd: string, home: string = os.homedir(), cache?: Map<string, boolean>): string | null {
  if (!path.isAbsolute(cwd)) return null;
  const limit = path.dirname(path.resolve(home));
  let dir = path.resolve(cwd);
  const bounded = isInside(dir, limit);
  for (;;) {
    if (dir === path.parse(dir).root) return null;
    let marked = cache?.get(dir);
    if (marked === undefined) {
      marked = hasMarker(dir);
      cache?.set(dir, marked);
    }
    if (marked) return dir;
    if (bounded && dir === limit) return null;
    dir = path.dirname(dir);
  }
}

/** Whether `p` is `dir` or inside it. */
export function isInside(p: string, dir: string): boolean {
  if (p === dir) return true;
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return p.startsWith(prefix);
}

/** Finds every root and the problems with explicit ones. Pure over the disk (stat calls only). */
export function discoverRoots(input: DiscoveryInput): Discovery {
  const home = input.home ?? os.homedir();
  const problems: Problem[] = [];
  const roots = new Set<string>();
  const watch = new Set<string>();
  const cache = new Map<string, boolean>();

  for (const given of input.explicitRoots) {
    const root = canonical(given);
    if (!isDir(root)) {
      problems.push({ file: given, message: `root ${given} does not exist or is not a directory` });
      continue;
    }
    watch.add(root);
    if (hasMarker(root)) roots.add(root);
    else problems.push({ file: given, message: `root ${given} holds no state directory (${MARKER_NAMES.join(', ')})` });
  }

  for (const given of input.sessionRoots) {
    const root = canonical(given);
    // A registry entry for a worktree that was cleaned up is history, not a problem.
    if (!isDir(root)) continue;
    const found = hasMarker(root) ? root : findProjectRoot(root, home, cache);
    if (found) roots.add(found);
    else watch.add(root);
  }

  const seen = new Set<string>();
  for (const cwd of input.cwds) {
    if (!cwd || seen.has(cwd)) continue;
    seen.add(cwd);
    const found = findProjectRoot(cwd, home, cache);
    if (found) roots.add(canonical(found));
  }

  for (const r of roots) watch.add(r);
  return { roots: [...roots].sort(), watchRoots: [...watch].sort(), problems };
}

/** The state directories of one root, one RunSource each, in registry order (a system's markers in its own order). */
export function sourcesOfRoot(root: string, systems: readonly SystemModule[]): RunSource[] {
  const sources: RunSource[] = [];
  for (const m of systems) {
    if (!m.readRun) continue;
    for (const marker of m.markers) {
      const stateDir = path.join(root, marker);
      if (isDir(stateDir)) sources.push({ system: m.system, root, stateDir });
    }
  }
  return sources;
}

/** A stable key for a source (one state directory is one run). */
export function sourceKey(source: RunSource): string {
  return `${source.system}\u0000${source.stateDir}`;
}
