/** What the systems' grants share: the lock that makes two grants at once give one grant and one refusal. */
import path from 'node:path';
import { withLock } from '../kit/lock.js';
import { ActionStop } from '../kit/execution.js';
import type { GrantDetail } from '../kit/detail.js';
import { createEffect, deleteEffect } from '../kit/effects.js';
import type { Effect } from '../kit/types.js';

/** The lock file tower holds in a state directory while it grants. */
export const LOCK_NAME = '.tower-grant.lock';

/** `<stateDir>/.tower-grant.lock`. */
export function grantLockFile(stateDir: string): string {
  return path.join(stateDir, LOCK_NAME);
}

/** The effects of a locked write: take the lock, write, let go. */
export function lockedEffects(lockFile: string, write: Effect): Effect[] {
  return [createEffect(lockFile, '<pid> <time>\n'), write, deleteEffect(lockFile)];
}

/** Runs `write` holding the grant lock; a lock already held is a refusal. */
export async function underGrantLock(d: GrantDetail, runId: string, write: () => Promise<string>): Promise<string> {
  const lockFile = d.lockFile ?? grantLockFile(d.stateDir);
  const held = await withLock(d.stateDir, lockFile, write);
  if (!held)
    throw new ActionStop(
      'refused',
      `another grant of ${runId} is in progress (${lockFile} exists; remove it if no grant is running)`,
    );
  return held.value;
}

/** JSON in the layout of the file it replaces: compact stays compact, an indented file keeps its indent. */
export function formatLike(original: string, value: unknown): string {
  const indent = /^\{\s*\n([ \t]+)"/.exec(original)?.[1];
  const body = indent ? JSON.stringify(value, null, indent) : JSON.stringify(value);
  return original.endsWith('\n') ? `${body}\n` : body;
}
