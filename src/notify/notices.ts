/**
 * What newly needs a human between two snapshots, each told once: a gate that opened (a checkpoint
 * timeout is its own event), a member whose pane died, a member that started waiting for a human.
 * Pure; the keys of what was already told are kept by the caller.
 */
import type { Member, Run, Snapshot } from '../model/model.js';
import type { NotifyEvent } from '../config/notify.js';
import { deltaFrom } from '../store/delta.js';
import { memberWaitsForHuman } from '../store/needs-you.js';

/** One thing to tell the operator. */
export interface Notice {
  event: NotifyEvent;
  run: string;
  /** The gate id (gate events), else null. */
  gate: string | null;
  /** One line saying what happened, for the desktop notification and TOWER_TITLE. */
  title: string;
  /** The run's box (null: this one). */
  host: string | null;
  /** What makes it the same notice again (never told twice). */
  key: string;
}

/** The gate id tower gives a checkpoint that timed out (an escalation of its own). */
export const CHECKPOINT_TIMEOUT_GATE = 'checkpoint-timeout';

function hostOf(run: Run): string | null {
  const host = (run as { host?: unknown }).host;
  return typeof host === 'string' ? host : null;
}

function memberId(run: Run, m: Member): string {
  return `${run.id}/${m.team ?? ''}/${m.name}`;
}

const noticesOf = new WeakMap<Run, Notice[]>();

/** What one run shows worth telling, worked out once per run object. */
function runNotices(run: Run): Notice[] {
  let out = noticesOf.get(run);
  if (out) return out;
  out = [];
  const host = hostOf(run);
  for (const g of run.gates) {
    if (g.state !== 'pending') continue;
    const event: NotifyEvent = g.id === CHECKPOINT_TIMEOUT_GATE ? 'checkpoint-timeout' : 'gate-opened';
    out.push({
      event,
      run: run.id,
      gate: g.id,
      title: `${run.id}: ${g.title}`,
      host,
      key: `gate|${run.id}|${g.id}|${g.since ?? ''}`,
    });
  }
  for (const m of run.members) {
    if (m.state === 'dead')
      out.push({
        event: 'member-died',
        run: run.id,
        gate: null,
        title: `${run.id}: ${m.name}'s pane died`,
        host,
        key: `dead|${memberId(run, m)}|${m.paneId ?? ''}`,
      });
    if (memberWaitsForHuman(m)) {
      const what = m.activityCue === 'question' ? 'asks a question' : 'stopped and waits for input';
      out.push({
        event: 'member-waiting',
        run: run.id,
        gate: null,
        title: `${run.id}: ${m.name} ${what}`,
        host,
        key: `wait|${memberId(run, m)}|${m.activitySince ?? ''}`,
      });
    }
  }
  noticesOf.set(run, out);
  return out;
}

/** Every notice the snapshot holds right now (what is pending, dead or waiting), keyed. */
export function currentNotices(snapshot: Snapshot): Notice[] {
  return snapshot.runs.flatMap(runNotices);
}

/** Keys of what was told, kept: past this, only what the current snapshot still shows is kept. */
const MAX_TOLD = 20_000;

/** Remembers what was told; `news` gives only what was not told (or seen at startup) before. */
export class NoticeLog {
  private told = new Set<string>();
  /** Runs already looked at: a run object the store kept from the last snapshot has nothing new to tell. */
  private seen = new WeakSet<Run>();
  /** The last snapshot looked at: the next one made from it has only its added runs to look at. */
  private last: Snapshot | null = null;

  /** The first snapshot: everything it shows is known, not news. */
  baseline(snapshot: Snapshot): void {
    this.last = snapshot;
    for (const run of snapshot.runs) {
      this.seen.add(run);
      for (const n of runNotices(run)) this.told.add(n.key);
    }
  }

  /** The notices of this snapshot that are new, marked as told. */
  news(snapshot: Snapshot): Notice[] {
    const out: Notice[] = [];
    const delta = deltaFrom(this.last, snapshot);
    this.last = snapshot;
    for (const run of delta ? delta.added : snapshot.runs) {
      if (this.seen.has(run)) continue;
      this.seen.add(run);
      for (const n of runNotices(run)) {
        if (this.told.has(n.key)) continue;
        this.told.add(n.key);
        out.push(n);
      }
    }
    if (this.told.size > MAX_TOLD) this.told = new Set(currentNotices(snapshot).map((n) => n.key));
    return out;
  }
}
