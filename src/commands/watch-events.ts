/** What changed between two snapshots, as the events `tower watch` prints (one JSON line each). */
import type { Gate, Member, Run, Snapshot } from '../model/model.js';
import { countOver, deltaFrom } from '../store/delta.js';

/** The event names of `tower watch`, one per JSON line. */
export const WATCH_EVENTS = [
  'run-added',
  'run-removed',
  'status-changed',
  'gate-opened',
  'gate-closed',
  'member-died',
  'member-alive',
  'liveness-unknown',
  'action-started',
  'action-finished',
  'rule-decision',
] as const;
export type WatchEventName = (typeof WATCH_EVENTS)[number];

/** One line of `tower watch`: when, what, which run (null for the whole box), and the event's own fields. */
export interface WatchEvent {
  time: string;
  event: WatchEventName;
  run: string | null;
  [field: string]: unknown;
}

function memberKey(m: Member): string {
  return `${m.team ?? ''}/${m.name}`;
}

function pending(gates: readonly Gate[]): Map<string, Gate> {
  return new Map(gates.filter((g) => g.state === 'pending').map((g) => [g.id, g]));
}

function gateEvents(time: string, prev: Run | null, next: Run | null, out: WatchEvent[]): void {
  const run = (next ?? prev)?.id ?? '';
  const before = pending(prev?.gates ?? []);
  const after = pending(next?.gates ?? []);
  for (const [id, g] of after) {
    if (!before.has(id))
      out.push({ time, event: 'gate-opened', run, gate: id, kind: g.kind, title: g.title, file: g.file });
  }
  for (const [id, g] of before) {
    if (after.has(id)) continue;
    const now = next?.gates.find((x) => x.id === id);
    out.push({ time, event: 'gate-closed', run, gate: id, kind: g.kind, state: now ? now.state : 'gone' });
  }
}

function memberEvents(time: string, prev: Run, next: Run, out: WatchEvent[]): void {
  const before = new Map(prev.members.map((m) => [memberKey(m), m]));
  for (const m of next.members) {
    const was = before.get(memberKey(m));
    const fields = {
      member: m.name,
      team: m.team ?? null,
      paneId: m.paneId,
      ...(m.tmuxServer ? { tmuxServer: m.tmuxServer } : {}),
      lead: m.lead,
    };
    if (m.state === 'alive' && was?.state !== 'alive')
      out.push({ time, event: 'member-alive', run: next.id, ...fields });
    if (was?.state === 'alive' && m.state === 'dead') out.push({ time, event: 'member-died', run: next.id, ...fields });
  }
}

const unknownCounts = new WeakMap<Run, number>();
const unknownTotals = new WeakMap<Snapshot, number>();

/**
 * Members with a pane whose liveness can't be known now (no tmux server, or it does not answer);
 * counted once per run object, and from the snapshot before when the store says what changed.
 */
function unknownMembers(s: Snapshot): number {
  return countOver(unknownTotals, s, (r) => {
    let n = unknownCounts.get(r);
    if (n === undefined) {
      n = 0;
      for (const m of r.members) if (m.paneId && m.state === 'unknown') n++;
      unknownCounts.set(r, n);
    }
    return n;
  });
}

/** Why liveness is unknown: the snapshot's tmux problem, else there is no server. */
function unknownReason(s: Snapshot): string {
  return (
    s.problems.find((p) => p.message.startsWith('tmux: '))?.message ??
    'no tmux server answers on this socket; pane liveness is unknown'
  );
}

/**
 * The runs that differ between two snapshots: walked side by side, since the store keeps every
 * unchanged run's object and its place; only where the two lists part are runs looked up by id.
 * On a box of 10,000 teams this keeps a change's diff to the runs it touched.
 */
function changedRuns(prev: readonly Run[], next: readonly Run[]): { before: Run[]; after: Run[] } {
  let head = 0;
  const n = Math.min(prev.length, next.length);
  while (head < n && prev[head] === next[head]) head++;
  let tail = 0;
  while (tail < n - head && prev[prev.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  const before = prev.slice(head, prev.length - tail);
  const after = next.slice(head, next.length - tail);
  // Runs that only moved are the same objects on both sides: no news.
  const moved = new Set(before);
  const stayed = new Set(after.filter((r) => moved.has(r)));
  return { before: before.filter((r) => !stayed.has(r)), after: after.filter((r) => !stayed.has(r)) };
}

/**
 * The events from `prev` to `next`. With no previous snapshot every run is added, and every gate
 * already pending opens (a supervisor that starts late still sees what waits for it).
 */
export function diffSnapshots(
  prev: Snapshot | null,
  next: Snapshot,
  time: string = new Date().toISOString(),
): WatchEvent[] {
  const out: WatchEvent[] = [];
  // Once for the whole box: members going unknown together are not each news (nor dead).
  const unknown = unknownMembers(next);
  if (unknown > 0 && (prev === null || unknownMembers(prev) === 0)) {
    out.push({ time, event: 'liveness-unknown', run: null, members: unknown, reason: unknownReason(next) });
  }
  // The store says what changed when `next` was made from `prev`; else the lists are walked.
  const delta = deltaFrom(prev, next);
  const { before: gone, after: came } = delta
    ? { before: delta.removed, after: delta.added }
    : prev
      ? changedRuns(prev.runs, next.runs)
      : { before: [], after: next.runs };
  const before = new Map(gone.map((r) => [r.id, r]));
  const after = new Set(came.map((r) => r.id));
  for (const r of came) {
    const was = before.get(r.id);
    if (!was) {
      out.push({ time, event: 'run-added', run: r.id, system: r.system, name: r.name, status: r.status, root: r.root });
      gateEvents(time, null, r, out);
      continue;
    }
    if (was.status !== r.status) out.push({ time, event: 'status-changed', run: r.id, from: was.status, to: r.status });
    gateEvents(time, was, r, out);
    memberEvents(time, was, r, out);
  }
  for (const r of gone) {
    if (after.has(r.id)) continue;
    gateEvents(time, r, null, out);
    out.push({ time, event: 'run-removed', run: r.id });
  }
  return out;
}
