/** SAGE's grant: the answer `STATUS: APPROVED` in `.resume-signal`, written under tower's lock. */
import path from 'node:path';
import { ActionStop } from '../../actions/execution.js';
import { writeAtomic } from '../../actions/files.js';
import { mtimeMs, readText } from '../../files/read.js';
import { grantLockFile, lockedEffects, underGrantLock } from '../grant-kit.js';
import type { GrantWay } from '../module.js';

/** SAGE's answer to its human gate that means "go on". */
export const RESUME_APPROVED = 'STATUS: APPROVED\n';

export const sageGrant: GrantWay = {
  plan(_run, gate, dir) {
    const file = path.join(dir, '.resume-signal');
    const lockFile = grantLockFile(dir);
    // As SAGE's reader sees it: the gate is raised by the state file and the last signal.
    const raisedBy = [...(gate.file ? [gate.file] : []), path.join(dir, '.last_signal')];
    const effects = lockedEffects(lockFile, { kind: 'write', text: `write ${file} ${JSON.stringify(RESUME_APPROVED)}` });
    return { detail: { file, pendingFile: null, lockFile, raisedBy }, effects };
  },
  run: (d, runId) =>
    underGrantLock(d, runId, async () => {
      // Checked under the lock: an APPROVED answer newer than what raised the gate is a grant already made.
      const answer = readText(d.file);
      const answeredAt = mtimeMs(d.file) ?? 0;
      const raisedAt = Math.max(0, ...d.raisedBy.map((f) => mtimeMs(f) ?? 0));
      if (answer.ok && /^STATUS:\s*APPROVED\b/m.test(answer.value) && answeredAt > raisedAt) {
        throw new ActionStop('refused', `gate hitl is already granted (${d.file} says STATUS: APPROVED)`);
      }
      await writeAtomic(d.stateDir, d.file, RESUME_APPROVED);
      return `wrote ${d.file} (STATUS: APPROVED)`;
    }),
};
