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

/** Whether path `p` (relative ones read from `base`) lies inside any of the rule's folders. */
export function insideAny(p: string, folders: string[], base: string | null, root: string | null): boolean {
  if (!path.isAbsolute(p) && base === null) return false;
  const real = realish(path.resolve(base ?? '/', p));
  return folders.some((name) => {
    const f = folderOf(name, root);
    return f !== null && isInside(real, realish(path.resolve(f)));
  });
}
