/**
 * dotagent's grant: a `{phase, approved_at}` entry appended to `user_checkpoints` in `phase.json`, every
 * other field kept.
 */
import path from 'node:path';
import { ActionStop } from '../../kit/execution.js';
import { writeAtomic } from '../../kit/files.js';
import { readJsonObject, readText } from '../../files/read.js';
import { isObject } from '../../files/values.js';
import { formatLike, grantLockFile, lockedEffects, underGrantLock } from '../grant-kit.js';
import type { GrantWay } from '../module.js';

export const dotagentGrant: GrantWay = {
  plan(_run, gate, dir, now) {
    const file = path.join(dir, 'phase.json');
    const lockFile = grantLockFile(dir);
    const entry = JSON.stringify({ phase: gate.id, approved_at: now.toISOString() });
    const effects = lockedEffects(lockFile, {
      kind: 'append',
      text: `append ${entry} to user_checkpoints in ${file} (temp file + rename, every other field kept)`,
    });
    return { detail: { file, pendingFile: null, lockFile, raisedBy: [] }, effects };
  },
  run: (d, runId) =>
    underGrantLock(d, runId, async () => {
      const text = readText(d.file);
      if (!text.ok) throw new ActionStop('failed', `can't read ${d.file}: ${text.problem.message}`);
      const obj = readJsonObject(d.file);
      if (!obj.ok) throw new ActionStop('failed', `can't grant: ${d.file}: ${obj.problem.message}`);
      const list = obj.value.user_checkpoints ?? [];
      if (!Array.isArray(list))
        throw new ActionStop(
          'failed',
          `can't grant: user_checkpoints in ${d.file} is not a list; the file was left alone`,
        );
      if (list.some((e) => isObject(e) && e.phase === d.gate.id)) {
        throw new ActionStop('refused', `phase ${d.gate.id} is already approved in ${d.file}`);
      }
      const next = {
        ...obj.value,
        user_checkpoints: [...list, { phase: d.gate.id, approved_at: new Date().toISOString() }],
      };
      await writeAtomic(d.stateDir, d.file, formatLike(text.value, next));
      return `appended {phase: ${d.gate.id}} to user_checkpoints in ${d.file}`;
    }),
};
