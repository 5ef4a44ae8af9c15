/** The sections of a tina handoff, each read by what it holds (lists, tables, code blocks), whatever the shape. */
import type { List, ListItem, RootContent, Table } from 'mdast';
import type { Problem, Review, Task } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { itemOwnText, nodeText, subItems, tableRows } from './markdown.js';
import { isVerdictWord, normalizeKind, normalizeTaskId, normalizeVerdict, parseReviewVerdicts } from './reviews.js';

/** "key: value" of a line, split at the first colon followed by a space (so "tina:implementer" stays whole). */
function keyValue(line: string): [string, string] | null {
  const m = /^(.*?):\s+(.*)$/.exec(line) ?? /^(.*?):$/.exec(line);
  if (!m) return null;
  return [(m[1] ?? '').trim(), (m[2] ?? '').trim()];
}

function items(nodes: RootContent[]): ListItem[] {
  return nodes.filter((n): n is List => n.type === 'list').flatMap((l) => l.children);
}

/** Role labels of seed 003 ("Workers", "Spec reviewer") as role words ("worker", "spec-reviewer"). */
function roleOfLabel(label: string): string {
  return label.toLowerCase().trim().replace(/\s+/g, '-').replace(/s$/, '');
}

/** Team Composition: `name: agent-type` items (January), `Role label: a, b` items (seed 003), or a table. */
export function readMembers(nodes: RootContent[], planShape: boolean): { name: string; role: string }[] {
  const members: { name: string; role: string }[] = [];
  const add = (name: string, role: string): void => {
    const n = sanitizeLine(name).trim();
    if (n === '' || members.some((m) => m.name === n)) return;
    members.push({ name: n, role: sanitizeLine(role).trim() || 'member' });
  };
  for (const item of items(nodes)) {
    const line = sanitizeLine(itemOwnText(item)).trim();
    const kv = keyValue(line);
    if (!kv) {
      add(line, 'member');
      continue;
    }
    const [key, value] = kv;
    // January lists `name: agent-type` ("tina:implementer"); seed 003 lists `Role label: name, name`.
    const agentType = /^[\w-]+:[\w-]+$/.test(value);
    const isLabel = !agentType && (planShape || value.includes(',') || /\s/.test(key) || /^[A-Z]/.test(key));
    if (isLabel) for (const name of value.split(',')) add(name, roleOfLabel(key));
    else add(key, value);
  }
  for (const node of nodes) {
    if (node.type !== 'table') continue;
    const [header, ...rows] = tableRows(node);
    const col = (names: string[]): number => (header ?? []).findIndex((h) => names.includes(h.toLowerCase()));
    const nameCol = col(['name', 'member', 'agent']);
    const roleCol = col(['role', 'type', 'agent type']);
    if (nameCol < 0) continue;
    for (const row of rows) add(row[nameCol] ?? '', roleCol >= 0 ? (row[roleCol] ?? '') : 'member');
  }
  return members;
}

const TASK_LINE = [/^task\s+#?([\w.-]+)\s*[:.)\u2013\u2014-]\s*(.*)$/i, /^#?(\d[\w.-]*)\s*[:.)\u2013\u2014-]\s*(.*)$/];
const NOBODY = new Set(['', '-', '\u2014', 'none', 'unassigned', 'n/a', 'nobody']);

function taskLine(line: string): { id: string; subject: string } | null {
  for (const re of TASK_LINE) {
    const m = re.exec(line);
    if (m) return { id: m[1] ?? '', subject: (m[2] ?? '').trim() };
  }
  return null;
}

/** "In Progress" → "in_progress", "Done" → "completed". */
function statusWord(raw: string): string {
  const w = sanitizeLine(raw)
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (w === 'done' || w === 'complete') return 'completed';
  return w;
}

function owner(raw: string): string | null {
  const o = sanitizeLine(raw).trim();
  return NOBODY.has(o.toLowerCase()) ? null : o;
}

function ids(raw: string): string[] {
  return raw
    .split(/[,\s]+/)
    .map(normalizeTaskId)
    .filter((id) => id !== '' && !NOBODY.has(id.toLowerCase()));
}

/** Task State(s): a table, or `Task N: subject` items whose status is the `###` heading above them. */
export function readTasks(
  nodes: RootContent[],
  file: string,
  problems: Problem[],
): { tasks: Task[]; reviews: Review[] } {
  const tasks: Task[] = [];
  const reviews: Review[] = [];
  let status: string | null = null;
  for (const node of nodes) {
    if (node.type === 'heading') status = statusWord(nodeText(node));
    else if (node.type === 'table') tasks.push(...tableTasks(node, file, problems));
    else if (node.type === 'list') {
      for (const item of node.children) {
        const line = sanitizeLine(itemOwnText(item)).trim();
        if (NOBODY.has(line.toLowerCase())) continue;
        const head = taskLine(line);
        if (!head) {
          problems.push({ file, message: `task line without an id: "${line.slice(0, 60)}"` });
          continue;
        }
        const checked = item.checked === true ? 'completed' : item.checked === false ? 'pending' : 'unknown';
        const task: Task = {
          id: normalizeTaskId(head.id),
          subject: head.subject,
          status: status ?? checked,
          owner: null,
          blockedBy: [],
        };
        for (const sub of subItems(item)) {
          const kv = keyValue(sanitizeLine(itemOwnText(sub)).trim());
          if (!kv) continue;
          const [key, value] = kv;
          const k = key.toLowerCase();
          if (k === 'owner' || k === 'worker' || k === 'assignee') task.owner = owner(value);
          else if (k === 'status') task.status = statusWord(value);
          else if (k === 'blocked by' || k === 'blockedby') task.blockedBy = ids(value);
          else if (/review$/.test(k)) {
            reviews.push({ taskId: task.id, kind: normalizeKind(k), verdict: normalizeVerdict(value), reviewer: null });
          }
        }
        tasks.push(task);
      }
    }
  }
  return { tasks: dedupeTasks(tasks), reviews };
}

function tableTasks(table: Table, file: string, problems: Problem[]): Task[] {
  const [header, ...rows] = tableRows(table);
  const names = (header ?? []).map((h) =>
    h
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .trim(),
  );
  const col = (...want: string[]): number => names.findIndex((h) => want.includes(h));
  const idCol = col('id', '#', 'task id');
  const subjectCol = col('subject', 'title', 'description', 'name', ...(idCol >= 0 ? ['task'] : []));
  const statusCol = col('status', 'state');
  const ownerCol = col('owner', 'assignee', 'worker');
  const blockedCol = col('blocked by', 'blockedby', 'depends on');
  if (idCol < 0) problems.push({ file, message: 'task table has no ID column; rows are numbered' });
  const tasks: Task[] = [];
  rows.forEach((row, i) => {
    if (row.every((c) => c === '')) return;
    const cell = (c: number): string => (c >= 0 ? sanitizeLine(row[c] ?? '').trim() : '');
    tasks.push({
      id: idCol >= 0 ? normalizeTaskId(cell(idCol)) || String(i + 1) : String(i + 1),
      subject: cell(subjectCol),
      status: statusWord(cell(statusCol)) || 'unknown',
      owner: owner(cell(ownerCol)),
      blockedBy: ids(cell(blockedCol)),
    });
  });
  return tasks;
}

function dedupeTasks(tasks: Task[]): Task[] {
  const byId = new Map<string, Task>();
  for (const t of tasks) if (!byId.has(t.id)) byId.set(t.id, t);
  return [...byId.values()];
}

/** Review Tracking: `Task N: kind verdict, …` items, a fenced JSON block, or a table of verdicts. */
export function readReviews(nodes: RootContent[], file: string, problems: Problem[]): Review[] {
  const reviews: Review[] = [];
  for (const node of nodes) {
    if (node.type === 'code') {
      const body = node.value.trim();
      if (body === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch (err) {
        const why = sanitizeLine(String(err)).slice(0, 100);
        problems.push({ file, message: `review tracking block is not JSON: ${why}` });
        continue;
      }
      const parsed = parseReviewVerdicts(json, file, null);
      reviews.push(...parsed.reviews);
      problems.push(...parsed.problems);
    } else if (node.type === 'list') {
      for (const item of node.children) {
        const line = sanitizeLine(itemOwnText(item)).trim();
        const head = taskLine(line);
        if (!head) continue;
        const taskId = normalizeTaskId(head.id);
        const parts = [head.subject, ...subItems(item).map((s) => sanitizeLine(itemOwnText(s)))];
        for (const part of parts.flatMap((p) => p.split(/[,;]/))) {
          // "spec-review passed" or "Spec review: passed"; "not yet reviewed" names no verdict.
          const words = part
            .replace(/\.\s*$/, '')
            .split(/[\s:=]+/)
            .filter((w) => w !== '');
          let verdict = words.pop() ?? '';
          // Two-word verdicts: "changes requested", "not started".
          const last = words[words.length - 1];
          if (words.length >= 2 && last !== undefined && isVerdictWord(`${last} ${verdict}`)) {
            verdict = `${words.pop()} ${verdict}`;
          }
          if (words.length === 0 || !isVerdictWord(verdict)) continue;
          reviews.push({
            taskId,
            kind: normalizeKind(words.join(' ')),
            verdict: normalizeVerdict(verdict),
            reviewer: null,
          });
        }
      }
    } else if (node.type === 'table') {
      const [header, ...rows] = tableRows(node);
      const heads = header ?? [];
      const idCol = heads.findIndex((h) => ['id', 'task', 'task id', '#'].includes(h.toLowerCase()));
      if (idCol < 0) continue;
      for (const row of rows) {
        const taskId = normalizeTaskId(row[idCol] ?? '');
        if (taskId === '') continue;
        heads.forEach((h, c) => {
          const cell = (row[c] ?? '').trim();
          if (c !== idCol && cell !== '' && isVerdictWord(cell)) {
            reviews.push({ taskId, kind: normalizeKind(h), verdict: normalizeVerdict(cell), reviewer: null });
          }
        });
      }
    }
  }
  return reviews;
}

/** Notes sections as single lines. */
export function readNotes(nodes: RootContent[]): string[] {
  const notes: string[] = [];
  const push = (text: string): void => {
    for (const line of text.split('\n')) {
      const l = sanitizeLine(line).trim();
      if (l !== '') notes.push(l);
    }
  };
  for (const node of nodes) {
    if (node.type === 'list') for (const item of node.children) push(nodeText(item).replace(/\n+/g, ' '));
    else push(nodeText(node));
  }
  return notes;
}
