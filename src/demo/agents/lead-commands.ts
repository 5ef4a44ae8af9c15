/**
 * What a team lead does when the checkpoint and rehydrate commands are typed into its pane: the
 * steps of tina's checkpoint and rehydrate skills, with a real handoff file written and read.
 */
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { ContextMeter } from './context-meter.js';
import { CONTEXT_THRESHOLD_PCT } from './context-meter.js';
import type { Teammate } from './handoff.js';
import { renderHandoff } from './handoff.js';
import type { PhaseStatus } from './phase-status.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';
import type { AgentTask } from './tasks.js';
import { readTasks } from './tasks.js';

/** What the lead's commands work on. */
export interface LeadContext {
  rt: AgentRuntime;
  phase: string;
  stateDir: string | null;
  tasksDir: string | null;
  teamFile: string | null;
  phaseStatus: PhaseStatus | null;
  meter: ContextMeter | null;
}

/** The rehydrated context a fresh conversation starts from. */
const REHYDRATED_PCT = 15;

/** The teammates of the team config (everyone but the lead); [] when it can't be read. */
export function readTeammates(rt: AgentRuntime, teamFile: string | null): Teammate[] {
  const cfg = teamFile ? rt.readObject(teamFile) : null;
  if (!cfg || !Array.isArray(cfg.members)) return [];
  const leadId = typeof cfg.leadAgentId === 'string' ? cfg.leadAgentId : '';
  const out: Teammate[] = [];
  for (const m of cfg.members as unknown[]) {
    if (typeof m !== 'object' || m === null) continue;
    const { name, agentId, agentType } = m as Record<string, unknown>;
    if (typeof name !== 'string') continue;
    if (name === leadId || agentId === leadId || agentType === 'team-lead') continue;
    out.push({ name, agentType: typeof agentType === 'string' ? agentType : 'general-purpose' });
  }
  return out;
}

function summarize(tasks: readonly AgentTask[]): string {
  const count = (s: string) => tasks.filter((t) => t.status === s).length;
  return (
    `${tasks.length} tasks (${count('completed')} completed, ${count('in_progress')} in ` +
    `progress, ${count('pending')} pending)`
  );
}

function handoffFile(lc: LeadContext): string | null {
  return lc.stateDir ? path.join(lc.stateDir, `phase-${lc.phase}`, 'handoff.md') : null;
}

function shown(lc: LeadContext, file: string): string {
  // Paths as the lead sees them: relative to its project (the parent of `.claude/tina`).
  const project = lc.stateDir ? path.dirname(path.dirname(lc.stateDir)) : lc.rt.opts.sandbox;
  return path.relative(project, file);
}

/** `/checkpoint`: ask the team to stand down, capture the task list, write the handoff. */
export async function checkpoint(lc: LeadContext): Promise<void> {
  const { rt, meter } = lc;
  const pct = meter?.pct ?? null;
  rt.print(
    style.bold('● Checkpoint') +
      style.dim(pct === null ? '' : ` · context ${pct}% (threshold ${CONTEXT_THRESHOLD_PCT}%)`),
  );
  await rt.sleep(500);
  const teammates = readTeammates(rt, lc.teamFile);
  rt.print(`  ⎿ requested team shutdown: ${teammates.map((m) => m.name).join(', ') || 'no teammates'}`);
  await rt.sleep(700);
  const tasks = lc.tasksDir ? readTasks(rt, lc.tasksDir) : [];
  rt.print(`  ⎿ captured task list: ${summarize(tasks)}`);
  await rt.sleep(400);
  const file = handoffFile(lc);
  if (file) {
    const reason =
      pct !== null && pct >= CONTEXT_THRESHOLD_PCT
        ? `Context threshold exceeded (${pct}% used, threshold ${CONTEXT_THRESHOLD_PCT}%)`
        : 'Checkpoint requested by the operator';
    try {
      rt.writeText(
        file,
        renderHandoff({
          phase: lc.phase,
          at: isoSeconds(Date.now()),
          reason,
          teammates,
          tasks,
          verdicts: lc.phaseStatus?.verdicts() ?? {},
          contextPct: pct,
        }),
      );
    } catch (err) {
      // The skill's rule: no handoff, no CHECKPOINT COMPLETE; the supervisor escalates.
      rt.print(style.red(`  ⎿ cannot write the handoff: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    rt.print(`  ⎿ wrote ${shown(lc, file)}`);
  } else {
    rt.print('  ⎿ summary kept in the team inbox (this team has no tina state dir)');
  }
  rt.print('CHECKPOINT COMPLETE');
}

/** `/rehydrate`: read the handoff back, restore the team and tasks, start from a small context. */
export async function rehydrate(lc: LeadContext): Promise<void> {
  const { rt } = lc;
  const file = handoffFile(lc);
  const text = file ? rt.readText(file) : null;
  rt.print(style.bold('● Rehydrate') + style.dim(file ? ` · reading ${shown(lc, file)}` : ''));
  await rt.sleep(500);
  if (!file || text === null) {
    rt.print(style.red('  ⎿ no handoff to rehydrate from'));
    rt.print('REHYDRATE FAILED: no handoff');
    return;
  }
  const at = /## Timestamp\s+(\S+)/.exec(text)?.[1] ?? 'unknown time';
  const team = [...text.matchAll(/^- ([\w.-]+): [\w:.-]+$/gm)].map((m) => m[1]);
  const rows = [...text.matchAll(/^\|\s*[^|\s-][^|]*\|[^|]*\|\s*(pending|in_progress|completed)\s*\|/gm)].map(
    (m) => m[1],
  );
  const count = (s: string) => rows.filter((r) => r === s).length;
  rt.print(`  ⎿ handoff of ${at}: team ${team.join(', ') || '(none)'}`);
  await rt.sleep(400);
  rt.print(
    `  ⎿ restored ${rows.length} tasks (${count('completed')} completed, ${count('in_progress')} in ` +
      `progress, ${count('pending')} pending)`,
  );
  if (lc.meter) {
    lc.meter.reset(REHYDRATED_PCT);
    rt.print(`  ⎿ context back to ${REHYDRATED_PCT}%`);
  }
  rt.print('REHYDRATE COMPLETE');
}
