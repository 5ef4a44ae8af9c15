/**
 * Generated handoffs: the three shapes tina writes (FORMATS.md §2) with the variations people and
 * agents bring: nested lists at any indentation, tables with escaped pipes and alignment rows, JSON
 * review blocks, CRLF, tabs, closing `#`s on headings, bold fields, code spans, escapes and character
 * references, extra sections, blank lines and trailing whitespace. Deterministic for a given seed.
 */

/** A small seeded generator (mulberry32), so a failing handoff can be made again from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  'Implement feature A',
  'Add `retry()` to the client',
  'Split cart \\| summary view',
  'Fix &amp; test the login flow',
  'Escape \\*stars\\* in names',
  'Handle 3 < 4 &lt; 5',
  'Migrate **legacy** tables',
  'Rename [subject] field',
  'Support ~~old~~ ids',
  'Caf\u00e9 menu \u2014 \u6f22\u5b57',
  'Write docs for `a | b`',
  'Cache &#x2713; results &#169;',
  'Line with trailing backslash \\',
  'Path C:\\\\temp\\\\x',
];
const STATUSES = ['completed', 'in_progress', 'pending', 'blocked', 'Done', 'In Progress'];
const OWNERS = ['worker-1', 'worker-2', '-', 'spec-reviewer', '\u2014', 'none'];
const VERDICTS = ['passed', 'failed', 'pending', 'approved', 'changes requested', 'not yet reviewed'];
const NOTES = [
  'Task 2 was in progress - worker had read the spec but not started coding',
  'Task 3 blocked by Task 1 (now unblocked)',
  'Resume with `npm test` \u2014 it was red',
  'See docs/plans/phase-2.md & the review',
  'Context at 72% when the checkpoint fired',
];

/** Builds handoff number `seed`. */
export function generatedHandoff(seed: number): string {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const chance = (p: number): boolean => r() < p;
  const eol = chance(0.3) ? '\r\n' : '\n';
  const indent = pick(['  ', '   ', '    ', '\t']);
  const lines: string[] = [];
  const push = (...ls: string[]): void => {
    for (const l of ls) lines.push(chance(0.08) ? `${l}${pick([' ', '  ', '\t'])}` : l);
  };
  const blank = (): void => {
    lines.push('');
    if (chance(0.1)) lines.push('');
  };
  const heading = (depth: number, text: string): void => {
    const hashes = '#'.repeat(depth);
    const style = r();
    if (depth === 2 && style < 0.08) push(text, '---');
    else if (style < 0.2) push(`${hashes} ${text} ${hashes}`);
    else if (style < 0.3) push(`${hashes}  ${text}:`);
    else if (style < 0.35) push(` ${hashes} ${text}`);
    else push(`${hashes} ${text}`);
    if (chance(0.6)) blank();
  };
  const taskCount = 1 + Math.floor(r() * 6);
  const shape = pick(['january', 'plan', 'current'] as const);

  push(`# Phase ${1 + Math.floor(r() * 4)} Checkpoint Handoff`);
  blank();
  if (shape === 'plan') {
    const bold = pick([(k: string) => `**${k}:**`, (k: string) => `**${k}**:`, (k: string) => `__${k}:__`]);
    const sep = chance(0.3) ? '  ' : '';
    push(`${bold('Checkpoint time')} 2026-01-26T10:30:00Z${sep}`, `${bold('Plan path')} docs/plans/2026-01-26-feature.md`);
    if (chance(0.4)) push(`${bold('Reason')} Context threshold exceeded`);
    blank();
  } else {
    heading(2, 'Timestamp');
    push(pick(['2026-01-26T10:30:00Z', '2026-02-10 12:20', '1769423400000']));
    blank();
    heading(2, 'Reason');
    push(pick(['Context threshold exceeded', 'Manual checkpoint', 'Context at 71% &gt; 70%']));
    blank();
  }
  if (shape === 'current') {
    heading(2, 'Plan Path');
    push(pick(['.claude/tina/phase-N/plan.md', '`docs/plans/p.md`', 'docs/plans/a\\_b.md']));
    blank();
  }
  if (shape !== 'current' || chance(0.3)) {
    heading(2, 'Team Composition');
    const kind = r();
    if (kind < 0.4) push('- worker-1: tina:implementer', '- worker-2: tina:implementer', '- spec-reviewer: tina:spec-reviewer');
    else if (kind < 0.75) push('- Workers: worker-1, worker-2', '- Spec reviewer: spec-reviewer', `${pick(['-', '*', '+'])} Code quality reviewer: cq`);
    else push('| Name | Role |', pick(['|---|---|', '|:--|--:|', '| :---: | --- |']), '| worker-1 | tina:implementer |', '| reviewer | tina:spec-reviewer |');
    blank();
  }

  const tableTasks = shape !== 'plan' && chance(0.85);
  heading(2, shape === 'plan' ? 'Task State' : 'Task States');
  if (tableTasks) {
    const lead = chance(0.85);
    const row = (cells: string[]): string => (lead ? `| ${cells.join(' | ')} |` : cells.join(' | '));
    push(row(['ID', 'Subject', 'Status', 'Owner']), lead ? pick(['|----|---------|--------|-------|', '|:-|:-|:-:|-:|']) : '--|--|--|--');
    for (let i = 1; i <= taskCount; i++) push(row([String(i), pick(SUBJECTS), pick(STATUSES), pick(OWNERS)]));
  } else {
    const groups = ['Completed', 'In Progress', 'Pending'];
    let id = 1;
    for (const group of groups) {
      heading(3, group);
      const n = Math.floor(r() * 3);
      for (let k = 0; k < n; k++, id++) {
        const check = chance(0.2) ? (group === 'Completed' ? '[x] ' : '[ ] ') : '';
        const marker = chance(0.15) ? `${k + 1}.` : '-';
        push(`${marker} ${check}Task ${id}: ${pick(SUBJECTS)}`);
        if (chance(0.15)) push(`${indent}continued on a second line`);
        if (chance(0.5)) {
          const sub = marker === '-' ? indent : ' '.repeat(marker.length + 1);
          push(`${sub}- Owner: ${pick(OWNERS)}`, `${sub}- Spec review: ${pick(VERDICTS)}`);
          if (chance(0.5)) push(`${sub}- Quality review: ${pick(VERDICTS)}`);
          if (chance(0.3)) push(`${sub}- Blocked by: ${id - 1}`);
        }
        if (chance(0.1)) blank();
      }
      blank();
    }
  }
  blank();

  heading(2, 'Review Tracking');
  const reviews = r();
  if (reviews < 0.45 || shape === 'plan') {
    const fence = pick(['```json', '```', '~~~json', '``` json extra', '````json']);
    const close = fence.startsWith('~') ? '~~~' : fence.startsWith('````') ? '````' : '```';
    const json = JSON.stringify({ 'task-1': { spec_review: pick(VERDICTS), quality_review: pick(VERDICTS), worker: 'worker-1' } }, null, pick([2, 4]));
    push(fence, ...json.split('\n'), close);
  } else if (reviews < 0.85) {
    for (let i = 1; i <= Math.min(taskCount, 3); i++) push(`- Task ${i}: spec-review ${pick(VERDICTS)}, code-quality ${pick(VERDICTS)}`);
  } else push('| Task | Spec review | Code quality |', '|---|---|---|', `| 1 | ${pick(VERDICTS)} | ${pick(VERDICTS)} |`);
  blank();

  if (chance(0.3)) {
    heading(2, pick(['Blockers', 'Open Questions', 'Decisions']));
    push(`> ${pick(NOTES)}`, `> ${pick(NOTES)}`);
    if (chance(0.5)) push('', '---', '');
    blank();
  }

  heading(2, pick(['Resumption Notes', 'Current Task Notes', 'Notes']));
  const notes = r();
  if (notes < 0.6) {
    for (let i = 0; i < 1 + Math.floor(r() * 3); i++) push(`- ${pick(NOTES)}`);
  } else if (notes < 0.8) push(pick(NOTES), pick(NOTES));
  else push(`- ${pick(NOTES)}`, '', `${indent.length >= 2 ? '  ' : indent}${pick(NOTES)}`, '', '    npm run test -- --watch');
  if (chance(0.5)) lines.push('');
  return lines.join(eol);
}
