/** The handoff the fake lead writes: January shape, read back whole by tower's handoff parser. */
import { describe, expect, it } from 'vitest';
import { renderHandoff } from '../../src/demo/agents/handoff.js';
import type { AgentTask } from '../../src/demo/agents/tasks.js';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { readMarkdown } from '../../src/systems/tina/markdown-reader.js';

function task(id: string, subject: string, status: string, owner: string | null, blockedBy: string[] = []): AgentTask {
  return { id, subject, status, owner, blockedBy, file: '', raw: {} };
}

const input = {
  phase: '2',
  at: '2026-01-26T10:30:00Z',
  reason: 'Context threshold exceeded (72% used, threshold 70%)',
  teammates: [
    { name: 'worker-1', agentType: 'tina:implementer' },
    { name: 'spec-reviewer', agentType: 'tina:spec-reviewer' },
  ],
  tasks: [
    task('1', 'Add cart | summary', 'completed', 'worker-1'),
    task('2', 'Persist drafts', 'in_progress', 'worker-1', ['1']),
    task('3', 'Retry payments', 'pending', null, ['1']),
    task('4', 'E2E tests', 'pending', null, ['2', '3']),
    task('5', 'Email receipt', 'completed', 'worker-1'),
  ],
  verdicts: { '1': { spec_review: 'passed', quality_review: 'failed' } },
  contextPct: 72,
};

describe('renderHandoff', () => {
  it('writes every section of the January shape', () => {
    const text = renderHandoff(input);
    expect(text.startsWith('# Phase 2 Checkpoint Handoff\n\n## Timestamp\n2026-01-26T10:30:00Z\n')).toBe(true);
    expect(text).toContain('- worker-1: tina:implementer');
    expect(text).toContain('| 1 | Add cart \\| summary | completed | worker-1 |');
    expect(text).toContain('| 3 | Retry payments | pending | - |');
    expect(text).toContain('- Task 1: spec-review passed, code-quality failed');
    expect(text).toContain('- Task 5: not yet reviewed');
    expect(text).toContain('- Task 2 was in progress (worker-1)');
    expect(text).toContain('- Task 1 failed review');
    expect(text).toContain('- Task 3 is unblocked and ready to pick up');
    expect(text).toContain('- Task 4 blocked by Task 2, Task 3');
  });

  it('is read back by the handoff parser with its tasks, members and reviews', () => {
    const { handoff, problems } = parseHandoff(renderHandoff(input), 'handoff.md', readMarkdown);
    expect(problems).toEqual([]);
    expect(handoff.shape).toBe('january');
    expect(handoff.timestamp).toBe('2026-01-26T10:30:00.000Z');
    expect(handoff.members).toEqual([
      { name: 'worker-1', role: 'tina:implementer' },
      { name: 'spec-reviewer', role: 'tina:spec-reviewer' },
    ]);
    expect(handoff.tasks.map((t) => [t.id, t.subject, t.status, t.owner])).toEqual([
      ['1', 'Add cart | summary', 'completed', 'worker-1'],
      ['2', 'Persist drafts', 'in_progress', 'worker-1'],
      ['3', 'Retry payments', 'pending', null],
      ['4', 'E2E tests', 'pending', null],
      ['5', 'Email receipt', 'completed', 'worker-1'],
    ]);
    expect(handoff.reviews).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ taskId: '1', verdict: 'passed' }),
        expect.objectContaining({ taskId: '1', verdict: 'failed' }),
      ]),
    );
  });

  it('says so when there are no teammates or reviews yet', () => {
    const text = renderHandoff({
      ...input,
      teammates: [],
      tasks: [task('1', 'x', 'pending', null)],
      verdicts: {},
      contextPct: null,
    });
    expect(text).toContain('- (no teammates found in the team config)');
    expect(text).toContain('- No task has been reviewed yet');
    expect(text).not.toContain('Context was at');
  });
});
