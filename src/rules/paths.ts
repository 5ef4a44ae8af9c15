/**
 * Whether a path a request touches lies inside a folder a rule names: `root` (the run's root) or an
 * absolute folder (`~/` is the home folder). Paths are read as the agent would reach them: a
 * relative one from the agent's folder, `..` resolved, and links followed as far as the path
 * exists (a link inside the root that points out of it is outside).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The path with links followed through its longest part that exists; the rest as written. */
export function realish(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(head), ...tail.reverse());
    } catch {
      const up = path.dirname(head);
      if (up === head) return p;
      tail.push(path.basename(head));
      head = up;
    }
  }
}

/** A rule's folder as an absolute path, or null (`root` with no root known, a relative folder). */
export function folderOf(name: string, root: string | null): string | null {
  if (name === 'root') return root;
  if (name === '~' || name.startsWith('~/')) return path.join(os.homedir(), name.slice(1));
  return path.isAbsolute(name) ? name : null;
}

/** Whether `child` is `folder` or lies inside it (both absolute, normalised). */
export function isInside(child: string, folder: string): boolean {
  const rel = path.relative(folder, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** A request's path as the agent reaches it (relative ones read from `base`), or null when it cannot be told. */
export function reachedPath(p: string, base: string | null): string | null {
  if (!path.isAbsolute(p) && base === null) return null;
  return realish(path.resolve(base ?? '/', p));
}

/** A rule's folders, read once: `root` stays a name (each run has its own), the rest are resolved now. */
export function ruleFolders(names: string[]): { root: boolean; folders: string[] } {
  const folders = names.flatMap((n) => {
    const f = n === 'root' ? null : folderOf(n, null);
    return f === null ? [] : [realish(path.resolve(f))];
  });
  return { root: names.includes('root'), folders };
}

/** Whether a reached path lies inside the run's root (when the rule names it) or one of its folders. */
export function insideFolders(real: string, f: { root: boolean; folders: string[] }, realRoot: string | null): boolean {
  return (f.root && realRoot !== null && isInside(real, realRoot)) || f.folders.some((d) => isInside(real, d));
}
