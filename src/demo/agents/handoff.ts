/**
 * The handoff a tina team lead writes on /checkpoint, in the January shape of the checkpoint skill:
 * Timestamp, Reason, Team Composition, Task States (table), Review Tracking, Resumption Notes.
 */
import type { AgentTask } from './tasks.js';

/** One teammate as the team config names it. */
export interface Teammate {
  name: string;
  agentType: string;
}

/** A task's review verdicts, as the supervisor state holds them. */
export interface TaskVerdicts {
  spec_review?: unknown;
  quality_review?: unknown;
}

/** Everything the handoff is made from. */
export interface HandoffInput {
  phase: string;
  /** ISO time of the checkpoint. */
  at: string;
  reason: string;
  teammates: Teammate[];
  tasks: AgentTask[];
  verdicts: Record<string, TaskVerdicts>;
  contextPct: number | null;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

function word(v: unknown): string {
  return typeof v === 'string' && v !== '' ? v : 'pending';
}

/** The handoff Markdown. */
export function renderHandoff(input: HandoffInput): string {
  const { tasks, verdicts } = input;
  const lines: string[] = [
    `# Phase ${input.phase} Checkpoint Handoff`,
    '',
    '## Timestamp',
    input.at,
    '',
    '## Reason',
    input.reason,
    '',
  ];

  lines.push('## Team Composition');
  if (input.teammates.length === 0) lines.push('- (no teammates found in the team config)');
  for (const m of input.teammates) lines.push(`- ${m.name}: ${m.agentType}`);
  lines.push('');

  lines.push('## Task States', '| ID | Subject | Status | Owner |', '|----|---------|--------|-------|');
  for (const t of tasks)
    lines.push(`| ${cell(t.id)} | ${cell(t.subject)} | ${cell(t.status)} | ${cell(t.owner ?? '-')} |`);
  lines.push('');

  lines.push('## Review Tracking');
  let tracked = 0;
  for (const t of tasks) {
    const v = verdicts[t.id];
    if (v) {
      lines.push(`- Task ${t.id}: spec-review ${word(v.spec_review)}, code-quality ${word(v.quality_review)}`);
      tracked++;
    } else if (t.status === 'completed') {
      lines.push(`- Task ${t.id}: not yet reviewed`);
      tracked++;
    }
  }
  if (tracked === 0) lines.push('- No task has been reviewed yet');
  lines.push('');

  lines.push('## Resumption Notes');
  for (const t of tasks) {
    const v = verdicts[t.id];
    if (t.status === 'in_progress')
      lines.push(`- Task ${t.id} was in progress (${t.owner ?? 'unowned'}) - resume from its last commit`);
    else if (v && (v.spec_review === 'failed' || v.quality_review === 'failed')) {
      lines.push(`- Task ${t.id} failed review - ${t.owner ?? 'its worker'} to address the findings`);
    } else if (t.status === 'pending') {
      const open = t.blockedBy.filter((id) => tasks.find((o) => o.id === id)?.status !== 'completed');
      lines.push(
        open.length > 0
          ? `- Task ${t.id} blocked by ${open.map((id) => `Task ${id}`).join(', ')}`
          : `- Task ${t.id} is unblocked and ready to pick up`,
      );
    }
  }
  if (input.contextPct !== null) lines.push(`- Context was at ${input.contextPct}% when the checkpoint was taken`);
  lines.push('');
  return lines.join('\n');
}
