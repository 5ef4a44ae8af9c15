/**
 * The real-CLI tests' one member, read as `tower status` reads it (one capture round of its pane,
 * the activity overlay laid over its run) and acted on as `tower answer` and `tower send` act.
 */
import { planAction, runAction } from '../../src/actions/index.js';
import type { Member, Run } from '../../src/model/model.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import type { PaneWatch } from '../../src/store/captures.js';
import type { ActionWorld } from '../actions/kit.js';
import { snapshotOf } from '../actions/kit.js';
import { waitFor } from './wait-for.js';

/** A run of one member in `paneId`, captured through `watch`. */
export interface OneMember {
  watch: PaneWatch;
  paneId: string;
  run: Run;
}

/** The run with its member's activity and prompt laid over it from one capture round. */
export async function readMember(m: OneMember): Promise<Run> {
  await m.watch.round([m.paneId], null);
  return new ActivityOverlay(m.watch).apply(snapshotOf(m.run)).runs[0]!;
}

/** The first read whose member satisfies `want`. */
export function readMemberWhen(
  m: OneMember,
  want: (member: Member) => boolean,
  opts: { timeoutMs: number; intervalMs: number },
): Promise<Run> {
  return waitFor(
    async () => {
      const r = await readMember(m);
      return want(r.members[0]!) ? r : null;
    },
    opts.timeoutMs,
    { intervalMs: opts.intervalMs, what: 'the member to read as wanted' },
  );
}

/** Plans and runs `tower answer <choice>` or `tower send <text>` on the member as last `read`. */
export async function actOnMember(w: ActionWorld, read: Run, action: { choice: string } | { text: string }) {
  w.setSnapshot(snapshotOf(read));
  const base = { run: read.id, members: [read.members[0]!.name] };
  const plan = planAction(
    w.env,
    'choice' in action
      ? { kind: 'answer', ...base, choice: action.choice }
      : { kind: 'send', ...base, text: action.text },
  );
  return { plan, outcome: await runAction(w.env, plan) };
}
