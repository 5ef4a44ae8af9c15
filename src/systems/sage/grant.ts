/**
 * SAGE's grant: the answer `STATUS: APPROVED` in `.resume-signal`, written under tower's lock. It is
 * refused when the gate is already answered, by an unread `.resume-signal` or by an answer the
 * orchestrator has read, deleted and logged: a second answer would be read at the NEXT gate, unseen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ActionStop } from '../../kit/execution.js';
import { writeAtomic } from '../../kit/files.js';
import { mtimeMs } from '../../files/look.js';
import type { Problem } from '../../model/model.js';
import { gateAnswer } from './answer.js';
import { readSignals } from './gate.js';
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
    const effects = lockedEffects(lockFile, {
      kind: 'write',
      text: `write ${file} ${JSON.stringify(RESUME_APPROVED)}`,
    });
    return { detail: { file, pendingFile: null, lockFile, raisedBy }, effects };
  },
  run: (d, runId) =>
    underGrantLock(d, runId, async () => {
      // A linked .resume-signal is refused before anything is read through it.
      if (fs.lstatSync(d.file, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
        throw new ActionStop('refused', `${d.file} is a symlink: tower never writes through one`);
      }
      // Checked again under the lock, as the reader decides it: an answer newer than what raised the gate counts.
      const signals = readSignals(d.stateDir, [] as Problem[]);
      const raisedAt = Math.max(0, ...d.raisedBy.map((f) => mtimeMs(f) ?? 0));
      const answer = gateAnswer(raisedAt, signals.resume, signals.logged);
      if (answer.state === 'answered' && answer.how === 'unread') {
        throw new ActionStop(
          'refused',
          `gate hitl is already answered: ${d.file} says ${answer.status || '(empty)'} and the ` +
            `orchestrator has not read it yet`,
        );
      }
      if (answer.state === 'answered') {
        throw new ActionStop(
          'refused',
          `gate hitl was already answered (${answer.status ?? 'status not logged'} at ${answer.at}, ` +
            `read by the orchestrator, ${signals.logFile}); another answer would go to the next gate unseen`,
        );
      }
      await writeAtomic(d.stateDir, d.file, RESUME_APPROVED);
      return `wrote ${d.file} (STATUS: APPROVED)`;
    }),
};
