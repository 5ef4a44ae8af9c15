/** The harness's grant: the `.granted` sentinel next to the pending checkpoint, created exclusively. */
import path from 'node:path';
import { createEffect } from '../../kit/effects.js';
import { ActionStop } from '../../kit/execution.js';
import { createExclusive } from '../../kit/files.js';
import { checkpointNameRefusal } from '../../kit/safety.js';
import { exists } from '../../files/look.js';
import type { GrantWay } from '../module.js';
import { CHECKPOINT_NAME } from './files.js';

/** The harness sentinel's content. */
export function grantedBody(at: Date): string {
  return `granted at ${at.toISOString()}\n`;
}

export const harnessGrant: GrantWay = {
  plan(_run, gate, dir, now) {
    if (!CHECKPOINT_NAME.test(gate.id)) return { refusal: `"${gate.id}" is not a checkpoint name (letters, digits, _ . - only)` };
    const badName = checkpointNameRefusal(gate.id);
    if (badName) return { refusal: badName };
    const pendingFile = path.join(dir, `checkpoint-${gate.id}.md`);
    const file = `${pendingFile}.granted`;
    return { detail: { file, pendingFile, lockFile: null, raisedBy: [] }, effects: [createEffect(file, grantedBody(now))] };
  },
  async run(d) {
    if (!d.pendingFile || !exists(d.pendingFile)) {
      throw new ActionStop('refused', `checkpoint ${d.gate.id} is not pending (${d.pendingFile ?? 'no file'} is gone)`);
    }
    if (!(await createExclusive(d.stateDir, d.file, grantedBody(new Date())))) {
      throw new ActionStop('refused', `checkpoint ${d.gate.id} is already granted (${d.file} exists)`);
    }
    return `created ${d.file}`;
  },
};
