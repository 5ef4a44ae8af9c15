/** What the screen derives from a run: counts, who can be acted on, which keys make sense. Pure. */
import type { Gate, Member, Run } from '../../model/model.js';
import { systemOf } from '../../systems/registry.js';
import { RunTally } from './tally.js';

/** Whether a run matches the filter text (case-insensitive, any of id, name, system, status, phase, host). */
export function matchesFilter(run: Run, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  if (f === '') return true;
  return [run.id, run.name, run.system, run.status, run.phase?.status ?? '', run.host ?? ''].some((s) =>
    s.toLowerCase().includes(f),
  );
}

/**
 * The runs the list shows, in the store's order (what needs a human first). Teams that ended come
 * last in that order and are left out unless `showEnded`; a filter searches them too.
 */
export function visibleRuns(runs: readonly Run[], filter: string, showEnded = true): readonly Run[] {
  if (filter.trim() !== '') return runs.filter((r) => matchesFilter(r, filter));
  if (showEnded) return runs;
  const folded = endedCount(runs);
  return folded === 0 ? runs : runs.slice(0, runs.length - folded);
}

const ended = new RunTally((r) => (r.ended ? 1 : 0));

/** How many runs at the end of the list are teams that ended (they sort last). */
export function endedCount(runs: readonly Run[]): number {
  // The store sorts every ended team after the rest: then their count is the length of the tail,
  // checked at its two edges; a list in another order is walked from its end.
  const n = ended.sum(runs);
  if ((n === 0 || runs[runs.length - n]?.ended) && !runs[runs.length - n - 1]?.ended) return n;
  let tail = 0;
  while (tail < runs.length && runs[runs.length - 1 - tail]?.ended) tail++;
  return tail;
}

/** Pending gates that wait for a human: checkpoints and approvals (amber), escalations (red). */
export function gateCounts(run: Run): { amber: number; red: number } {
  let amber = 0;
  let red = 0;
  for (const g of run.gates) {
    if (g.state !== 'pending') continue;
    if (g.kind === 'escalation') red++;
    else if (g.kind === 'checkpoint' || g.kind === 'approval') amber++;
  }
  return { amber, red };
}

/** Pending gates `tower grant` can grant. */
export function grantableGates(run: Run): Gate[] {
  return run.gates.filter((g) => g.state === 'pending' && g.grantable);
}

/** The lead with a pane of its own, preferring one that is alive. */
export function leadWithPane(run: Run): Member | null {
  const leads = run.members.filter((m) => m.lead && m.paneId);
  return leads.find((m) => m.state === 'alive') ?? leads[0] ?? null;
}

/**
 * Whether the checkpoint cycle (and rehydrate) can target this run: one whose system keeps cycle
 * files (its lead is reached through its session even without a pane), or one with a live lead pane.
 */
export function canCheckpoint(run: Run): boolean {
  return (
    Boolean(systemOf(run.system).cycle?.files) || run.members.some((m) => m.lead && m.paneId && m.state === 'alive')
  );
}

/** Teammates (not leads) whose panes are alive: what force-terminate takes by default. */
export function liveTeammates(run: Run): Member[] {
  return run.members.filter((m) => !m.lead && m.paneId && m.state === 'alive');
}

/** Tasks per status, in first-seen order: `[["completed", 5], ["in_progress", 2]]`. */
export function taskCounts(run: Run): [string, number][] {
  const counts = new Map<string, number>();
  for (const t of run.tasks) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
  return [...counts];
}

/**
 * Whose pane the preview shows: the member selected in the team pane (while team or preview has focus), else
 * the lead.
 */
export function previewMember(run: Run | null, selected: Member | null, focus: string): Member | null {
  if (!run) return null;
  if ((focus === 'team' || focus === 'preview') && selected?.paneId) return selected;
  // The lead the checkpoint cycle types into: of the working team (tina: the current phase's) when the system
  // names one.
  const teams = systemOf(run.system).cycle?.workingTeams(run) ?? [];
  const working = run.members.find(
    (m) => m.lead && m.paneId && m.state === 'alive' && m.team !== undefined && teams.includes(m.team),
  );
  return working ?? leadWithPane(run) ?? run.members.find((m) => m.paneId) ?? null;
}
