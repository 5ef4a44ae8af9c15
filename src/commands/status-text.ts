/**
 * The plain-text form of `tower status`: one block per run that says everything in words
 * (colour only adds emphasis, so a monochrome terminal loses nothing).
 */
import type { Gate, GateKind, Member, Problem, Run, RunStatus, Snapshot } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import { activityWord, countNeedingYou } from '../store/needs-you.js';

/** How to print: colour or not, and "now" for the ages of gates and handoffs. */
export interface TextOptions {
  color: boolean;
  now: number;
}

type Paint = (code: string, text: string) => string;

const SGR = { red: '31', green: '32', amber: '33', blue: '34', dim: '2', bold: '1' } as const;

const GATE_WORD: Record<GateKind, string> = {
  checkpoint: 'CHECKPOINT',
  escalation: 'ESCALATION',
  context: 'CONTEXT',
  approval: 'APPROVAL',
};

const STATUS_COLOR: Record<RunStatus, string> = {
  blocked: SGR.red,
  running: SGR.green,
  waiting: SGR.amber,
  idle: SGR.blue,
  unknown: SGR.dim,
  complete: SGR.dim,
};

/** "12m", "3h", "2d" since an ISO time; null when unknown or unparseable. */
export function age(iso: string | null, now: number): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** "2/3 executing", "IMPLEMENTATION in_progress" (a named phase has no "of N"), or null. */
export function phaseText(run: Run): string | null {
  if (!run.phase) return null;
  const { current, total, status } = run.phase;
  const numbered = total !== null && /^\d+(\.\d+)?$/.test(current);
  return `${numbered ? `${current}/${total}` : current}${status ? ` ${status}` : ''}`;
}

/** Counts of a list by a key, as "3 completed, 1 in_progress", in first-seen order. */
export function countBy<T>(items: readonly T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
}

function gateLine(g: Gate, now: number, paint: Paint): string {
  const since = age(g.since, now);
  const head = `${GATE_WORD[g.kind]} ${g.state}${since ? ` ${since}` : ''}`;
  const color = g.state === 'granted' ? SGR.dim : g.kind === 'escalation' ? SGR.red : SGR.amber;
  const id = sanitizeLine(g.id);
  const title = sanitizeLine(g.title);
  // Titles often start with the gate id already ("pre-done: Human reviews…").
  const label =
    !title || title === id ? id : title.toLowerCase().startsWith(id.toLowerCase()) ? title : `${id}: ${title}`;
  const extra = g.grantable && g.state === 'pending' ? ' (grantable)' : '';
  return `${paint(color, head)}  ${label}${extra}`;
}

function memberText(m: Member, paint: Paint): string {
  const stateColor = m.state === 'alive' ? SGR.green : m.state === 'dead' ? SGR.red : SGR.dim;
  const role = sanitizeLine(m.role);
  const doing = m.state === 'alive' && m.activity !== undefined && m.activity !== 'unknown' ? activityWord(m) : null;
  const bits = [
    m.lead ? 'lead' : null,
    role && !(m.lead && role === 'team-lead') ? role : null,
    m.paneId ? `${m.state} ${m.paneId}${m.tmuxServer ? ` on ${sanitizeLine(m.tmuxServer)}` : ''}` : m.state,
    doing,
  ];
  const body = bits.filter((b): b is string => b !== null).join(', ');
  return `${sanitizeLine(m.name)} (${paint(stateColor, body)})`;
}

/** A held request as status says it: `1764000000-4242:9f86d081884c Bash: touch A.txt`. */
function heldLine(h: NonNullable<Member['held']>[number]): string {
  const ref = h.hash ? `${h.id}:${h.hash.slice(0, 12)}` : h.id;
  const about = [h.tool, h.subject]
    .filter((x): x is string => x !== null)
    .map(sanitizeLine)
    .join(': ');
  return `request ${ref} ${about}${h.unreadable ? ` (cannot be shown whole: ${sanitizeLine(h.unreadable)})` : ''}`;
}

function problemLine(p: Problem): string {
  return p.file ? `${sanitizeLine(p.file)}: ${sanitizeLine(p.message)}` : sanitizeLine(p.message);
}

/** The block of lines for one run. */
export function runBlock(run: Run, opts: TextOptions): string[] {
  const paint: Paint = opts.color ? (code, text) => `\u001b[${code}m${text}\u001b[0m` : (_code, text) => text;
  const phase = phaseText(run);
  const head = [paint(SGR.bold, sanitizeLine(run.id)), paint(STATUS_COLOR[run.status], run.status.toUpperCase())];
  if (phase) head.push(`phase ${sanitizeLine(phase)}`);
  const lines = [head.join('  ')];
  if (run.root) lines.push(`  root: ${sanitizeLine(run.root)}`);
  for (const g of run.gates) lines.push(`  ${gateLine(g, opts.now, paint)}`);
  if (run.context) {
    const over = run.context.threshold !== null && run.context.usedPct >= run.context.threshold;
    // The words of the run's warning and gate (`context 72% ≥ 70% threshold`), one figure everywhere.
    const pct = `${Math.round(run.context.usedPct)}%`;
    const gauge =
      run.context.threshold !== null ? `${pct} ${over ? '≥' : '<'} ${run.context.threshold}% threshold` : pct;
    lines.push(`  context: ${over ? paint(SGR.amber, gauge) : gauge}`);
  }
  if (run.handoff) {
    const when = age(run.handoff.writtenAt, opts.now);
    const stale = run.handoff.stale ? paint(SGR.amber, ' (stale)') : '';
    lines.push(`  handoff: ${sanitizeLine(run.handoff.path)}${when ? `, written ${when} ago` : ''}${stale}`);
  }
  // A tina run merges several teams: one line per team, so two leads don't read as one.
  const teams = [...new Set(run.members.map((m) => m.team ?? ''))];
  for (const team of teams) {
    const members = run.members.filter((m) => (m.team ?? '') === team);
    const label = teams.length > 1 && team ? `members (${sanitizeLine(team)})` : 'members';
    if (members.length) lines.push(`  ${label}: ${members.map((m) => memberText(m, paint)).join(', ')}`);
  }
  // Every request held for a member's pane, each by the id `tower answer --request` takes.
  for (const m of run.members)
    for (const h of m.held ?? [])
      lines.push(`  ${paint(SGR.amber, 'held')} for ${sanitizeLine(m.name)}: ${heldLine(h)}`);
  if (run.tasks.length)
    lines.push(`  tasks: ${run.tasks.length} (${countBy(run.tasks, (t) => sanitizeLine(t.status))})`);
  if (run.reviews.length) lines.push(`  reviews: ${countBy(run.reviews, (r) => r.verdict)}`);
  if (run.warnings?.length) {
    lines.push('  warnings:');
    for (const w of run.warnings) lines.push(`    - ${paint(SGR.amber, sanitizeLine(w))}`);
  }
  if (run.problems.length) {
    lines.push(`  problems (${run.problems.length}):`);
    for (const p of run.problems) lines.push(`    - ${paint(SGR.red, problemLine(p))}`);
  }
  return lines;
}

/** The whole text report. */
export function formatStatus(snapshot: Snapshot, opts: TextOptions): string {
  const out: string[] = [];
  const needing = countNeedingYou(snapshot);
  const count = `${snapshot.runs.length} run${snapshot.runs.length === 1 ? '' : 's'}`;
  out.push(snapshot.runs.length ? `${count}${needing ? `, ${needing} waiting for a human` : ''}` : 'No runs found.');
  for (const run of snapshot.runs) out.push('', ...runBlock(run, opts));
  if (snapshot.problems.length) {
    out.push('', `Problems (${snapshot.problems.length}):`);
    for (const p of snapshot.problems) out.push(`  - ${problemLine(p)}`);
  }
  return `${out.join('\n')}\n`;
}
