import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { readMarkdown } from '../../src/systems/tina/markdown-reader.js';
import { readFixture } from '../helpers/fixtures.js';
import { expectPrintable } from '../helpers/printable.js';

const JANUARY = readFixture('samples/tina/handoff.skill-2026-01-26.md');
const CURRENT = readFixture('samples/tina/handoff.skill-head.md');
const PLAN = readFixture('tina/handoff.seed-003.md');

describe('parseHandoff: the January shape (seed 000)', () => {
  const { handoff, problems } = parseHandoff(JANUARY, '/h.md', readMarkdown);

  it('reads timestamp, reason and team composition', () => {
    expect(problems).toEqual([]);
    expect(handoff.shape).toBe('january');
    expect(handoff.timestamp).toBe('2026-01-26T10:30:00.000Z');
    expect(handoff.reason).toBe('Context threshold exceeded');
    expect(handoff.planPath).toBeNull();
    expect(handoff.members).toEqual([
      { name: 'worker-1', role: 'tina:implementer' },
      { name: 'worker-2', role: 'tina:implementer' },
      { name: 'spec-reviewer', role: 'tina:spec-reviewer' },
      { name: 'code-quality-reviewer', role: 'tina:code-quality-reviewer' },
    ]);
  });

  it('reads the task table, "-" meaning no owner', () => {
    expect(handoff.tasks).toEqual([
      { id: '1', subject: 'Implement feature A', status: 'completed', owner: 'worker-1', blockedBy: [] },
      { id: '2', subject: 'Implement feature B', status: 'in_progress', owner: 'worker-2', blockedBy: [] },
      { id: '3', subject: 'Add tests for A', status: 'pending', owner: null, blockedBy: [] },
    ]);
  });

  it('reads review lines; "not yet reviewed" is no verdict', () => {
    expect(handoff.reviews).toEqual([
      { taskId: '1', kind: 'code-quality', verdict: 'passed', reviewer: null },
      { taskId: '1', kind: 'spec-review', verdict: 'passed', reviewer: null },
    ]);
    expect(handoff.notes).toEqual([
      'Task 2 was in progress - worker had read the spec but not started coding',
      'Task 3 blocked by Task 1 (now unblocked)',
    ]);
  });
});

describe('parseHandoff: the current shape', () => {
  it('reads plan path, task table and task notes; no team composition', () => {
    const { handoff, problems } = parseHandoff(CURRENT, '/h.md', readMarkdown);
    expect(problems).toEqual([]);
    expect(handoff.shape).toBe('current');
    expect(handoff.planPath).toBe('.claude/tina/phase-N/plan.md');
    expect(handoff.members).toEqual([]);
    expect(handoff.tasks.map((t) => [t.id, t.status, t.owner])).toEqual([
      ['1', 'completed', null],
      ['2', 'in_progress', 'worker'],
      ['3', 'pending', null],
    ]);
    expect(handoff.notes).toHaveLength(2);
  });
});

describe('parseHandoff: the plan shape (seed 003)', () => {
  const { handoff, problems } = parseHandoff(PLAN, '/h.md', readMarkdown);

  it('reads the bold fields and role-labelled team composition', () => {
    expect(problems).toEqual([]);
    expect(handoff.shape).toBe('plan');
    expect(handoff.timestamp).toBe('2026-01-26T10:30:00.000Z');
    expect(handoff.planPath).toBe('docs/plans/2026-01-26-feature-phase-N.md');
    expect(handoff.members).toEqual([
      { name: 'worker-1', role: 'worker' },
      { name: 'worker-2', role: 'worker' },
      { name: 'spec-reviewer', role: 'spec-reviewer' },
      { name: 'code-quality-reviewer', role: 'code-quality-reviewer' },
    ]);
  });

  it('reads task lists under Completed / In Progress / Pending with owner sub-bullets', () => {
    expect(handoff.tasks.map((t) => [t.id, t.status, t.owner])).toEqual([
      ['1', 'completed', null],
      ['2', 'completed', null],
      ['3', 'in_progress', 'worker-1'],
      ['4', 'pending', null],
      ['5', 'pending', null],
    ]);
    expect(handoff.tasks[0]?.subject).toBe('[subject]');
  });

  it('reads reviews from the JSON block and the sub-bullets', () => {
    expect(handoff.reviews).toEqual([
      { taskId: '3', kind: 'code-quality', verdict: 'pending', reviewer: null },
      { taskId: '3', kind: 'spec-review', verdict: 'passed', reviewer: null },
    ]);
    expect(handoff.notes).toEqual(['[Any blockers or context needed for resumption]']);
  });
});

describe('parseHandoff: variants and damage', () => {
  it('calls a file with none of the sections unknown, with a problem; the same for an empty file', () => {
    for (const text of ['just some words\n', '', '# Title only\n\nno sections here']) {
      const { handoff, problems } = parseHandoff(text, '/h.md', readMarkdown);
      expect(handoff.shape).toBe('unknown');
      expect(problems).toEqual([{ file: '/h.md', message: expect.stringContaining('none of the expected sections') }]);
    }
  });

  it('keeps an unparseable timestamp as written, with a problem', () => {
    const { handoff, problems } = parseHandoff(
      '## Timestamp\nyesterday-ish\n\n## Reason\nmanual\n',
      '/h.md',
      readMarkdown,
    );
    expect(handoff.timestamp).toBe('yesterday-ish');
    expect(problems.map((p) => p.message)).toEqual(['handoff timestamp "yesterday-ish" is not a date']);
  });

  it('reports an invalid review JSON block and a task line without an id, and keeps the rest', () => {
    const text = [
      '**Checkpoint time:** 2026-01-26T10:30:00Z',
      '',
      '## Task State',
      '### Pending',
      '- Task 4: write docs',
      '- tidy up somewhere',
      '- None',
      '',
      '## Review Tracking',
      '```json',
      '{"task-4": {"spec_review": "pass',
      '```',
    ].join('\n');
    const { handoff, problems } = parseHandoff(text, '/h.md', readMarkdown);
    expect(handoff.shape).toBe('plan');
    expect(handoff.tasks.map((t) => t.id)).toEqual(['4']);
    expect(problems.map((p) => p.message)).toEqual([
      'task line without an id: "tidy up somewhere"',
      expect.stringMatching(/^review tracking block is not JSON/),
    ]);
  });

  it('numbers the rows of a task table without an ID column, with a problem', () => {
    const text =
      '## Task States\n| Subject | Status | Owner |\n|---|---|---|\n| A | done | w |\n| B | In Progress | — |\n';
    const { handoff, problems } = parseHandoff(text, '/h.md', readMarkdown);
    expect(handoff.tasks).toEqual([
      { id: '1', subject: 'A', status: 'completed', owner: 'w', blockedBy: [] },
      { id: '2', subject: 'B', status: 'in_progress', owner: null, blockedBy: [] },
    ]);
    expect(problems.map((p) => p.message)).toEqual(['task table has no ID column; rows are numbered']);
  });

  it('reads checkbox task lists, blocked-by columns and two-word verdicts', () => {
    const text = [
      '## Task States',
      '- [x] Task 1: schema',
      '- [ ] Task 2: page',
      '  - Blocked by: task-1, 3',
      '',
      '| ID | Subject | Status | Owner | Blocked By |',
      '|----|---------|--------|-------|------------|',
      '| #3 | `docs` | pending | - | 1, 2 |',
      '',
      '## Review Tracking',
      '- Task 2: spec-review failed; code-quality changes requested',
      '- Task 3: spec review: approved.',
    ].join('\n');
    const { handoff } = parseHandoff(text, '/h.md', readMarkdown);
    expect(handoff.tasks).toEqual([
      { id: '1', subject: 'schema', status: 'completed', owner: null, blockedBy: [] },
      { id: '2', subject: 'page', status: 'pending', owner: null, blockedBy: ['1', '3'] },
      { id: '3', subject: 'docs', status: 'pending', owner: null, blockedBy: ['1', '2'] },
    ]);
    expect(handoff.reviews).toEqual([
      { taskId: '2', kind: 'code-quality', verdict: 'failed', reviewer: null },
      { taskId: '2', kind: 'spec-review', verdict: 'failed', reviewer: null },
      { taskId: '3', kind: 'spec-review', verdict: 'passed', reviewer: null },
    ]);
  });

  it('strips escape sequences and control characters from everything it returns', () => {
    const text = [
      '## Timestamp',
      '2026-01-26T10:30:00Z',
      '## Reason',
      'Context \u001b[31mthreshold\u001b[0m \u001b]0;owned\u0007exceeded\u0008',
      '## Team Composition',
      '- worker\u001b[2J-1: tina:\u009b1mimplementer',
      '## Task States',
      '| ID | Subject | Status | Owner |',
      '|----|---------|--------|-------|',
      '| 1 | Clear \u001b[2J\u001b[Hscreen | in\u0007_progress | w\u001bP+q\u001b\\ |',
      '## Resumption Notes',
      '- note \u001b[5mblink\tTab',
    ].join('\n');
    const { handoff } = parseHandoff(text, '/h.md', readMarkdown);
    expectPrintable(handoff);
    expect(handoff.reason).toBe('Context threshold exceeded');
    expect(handoff.members).toEqual([{ name: 'worker-1', role: 'tina:implementer' }]);
    expect(handoff.tasks[0]).toMatchObject({ subject: 'Clear screen', status: 'in_progress', owner: 'w' });
    expect(handoff.notes).toEqual(['note blink  Tab']);
  });

  it('reads only the head of a runaway file, saying so', () => {
    const text = JANUARY + '\n- filler line\n'.repeat(20_000);
    const { handoff, problems } = parseHandoff(text, '/h.md', readMarkdown);
    expect(handoff.shape).toBe('january');
    expect(handoff.timestamp).toBe('2026-01-26T10:30:00.000Z');
    expect(handoff.tasks).toHaveLength(3);
    expect(problems).toEqual([
      { file: '/h.md', message: `handoff is ${Math.round(text.length / 1024)} kB; only the first 32 kB were read` },
    ]);
  });

  it('flattens absurd nesting and keeps inline markup other than code as written', () => {
    const deep = `## Notes\n${'>'.repeat(5000)} deep note\n${' '.repeat(3000)}- indented note\n`;
    expect(parseHandoff(deep, '/h.md', readMarkdown).handoff.notes.join(' ')).toContain('deep note');
    const text =
      '__Checkpoint time:__ 2026-01-26T10:30:00Z\n**Plan path**: `docs/p.md`\n\n## Task State\n- Task 1: Implement *feature* [A](x)\n';
    const { handoff } = parseHandoff(text, '/h.md', readMarkdown);
    expect(handoff.timestamp).toBe('2026-01-26T10:30:00.000Z');
    expect(handoff.planPath).toBe('docs/p.md');
    expect(handoff.tasks[0]?.subject).toBe('Implement *feature* [A](x)');
  });

  it('tells member names from role labels by their values', () => {
    const text =
      '## Team Composition\n- Worker-A: tina:implementer\n- Team lead: boss\n- Reviewers: r1, r2\n- helper: general\n';
    expect(parseHandoff(text, '/h.md', readMarkdown).handoff.members).toEqual([
      { name: 'Worker-A', role: 'tina:implementer' },
      { name: 'boss', role: 'team-lead' },
      { name: 'r1', role: 'reviewer' },
      { name: 'r2', role: 'reviewer' },
      { name: 'helper', role: 'general' },
    ]);
  });

  it('reads a member table and a review table', () => {
    const text = [
      '## Team Composition',
      '| Name | Role |',
      '|---|---|',
      '| worker-1 | tina:implementer |',
      '## Review Tracking',
      '| Task | Spec review | Code quality |',
      '|---|---|---|',
      '| 1 | passed | rejected |',
      '| 2 | - | - |',
    ].join('\n');
    const { handoff } = parseHandoff(text, '/h.md', readMarkdown);
    expect(handoff.shape).toBe('january');
    expect(handoff.members).toEqual([{ name: 'worker-1', role: 'tina:implementer' }]);
    expect(handoff.reviews).toEqual([
      { taskId: '1', kind: 'code-quality', verdict: 'failed', reviewer: null },
      { taskId: '1', kind: 'spec-review', verdict: 'passed', reviewer: null },
    ]);
  });
});
