/**
 * tina's `phase-N/handoff.md`, written by a checkpoint. Three shapes exist (FORMATS.md §2): January
 * (seed 000: team composition, task table, review lines), plan (seed 003: bold fields, task lists under
 * `### Completed`…, review tracking as a JSON block) and current (task table, plan path, task notes).
 * Every section is read by what it holds, whatever the shape, so mixed or edited handoffs still read.
 */
import type { List, ListItem, RootContent, Table } from 'mdast';
import type { Problem, Review, Task } from '../model.js';
import { sanitizeLine } from '../text.js';
import { toIso } from './read.js';
import { boldFields, itemOwnText, nodeText, parseMarkdown, splitSections, subItems, tableRows } from './tina-markdown.js';
import type { Section } from './tina-markdown.js';
import { isVerdictWord, normalizeKind, normalizeTaskId, normalizeVerdict, parseReviewVerdicts, dedupeReviews } from './tina-reviews.js';

/** What a handoff says, sanitized. */
export interface ParsedHandoff {
  shape: 'january' | 'plan' | 'current' | 'unknown';
  /** ISO when parseable, else the text as written. */
  timestamp: string | null;
  reason: string | null;
  planPath: string | null;
  members: { name: string; role: string }[];
  tasks: Task[];
  reviews: Review[];
  notes: string[];
}

const SECTION_ROLES = {
  timestamp: ['timestamp', 'checkpoint time', 'time'],
  reason: ['reason'],
  planPath: ['plan path', 'plan'],
  team: ['team composition', 'team'],
  tasks: ['task states', 'task state', 'tasks'],
  reviews: ['review tracking', 'reviews', 'review state'],
  notes: ['resumption notes', 'current task notes', 'notes'],
} as const;
type Role = keyof typeof SECTION_ROLES;

const KNOWN = new Set<string>(Object.values(SECTION_ROLES).flat());

/**
 * Only this much of a handoff is parsed: real ones are a few kB, and Markdown parsing of a runaway file
 * would hold up every other run's refresh. The head of the file still reads, with a problem.
 */
export const MAX_HANDOFF_CHARS = 64 * 1024;

/** Parses a handoff; never throws. A handoff with none of the known sections is shape 'unknown' with a problem. */
export function parseHandoff(text: string, file: string): { handoff: ParsedHandoff; problems: Problem[] } {
  const handoff: ParsedHandoff = {
    shape: 'unknown',
    timestamp: null,
    reason: null,
    planPath: null,
    members: [],
    tasks: [],
    reviews: [],
    notes: [],
  };
  const problems: Problem[] = [];
  if (text.length > MAX_HANDOFF_CHARS) {
    problems.push({ file, message: `handoff is ${Math.round(text.length / 1024)} kB; only the first ${MAX_HANDOFF_CHARS / 1024} kB were read` });
  }
  let doc: ReturnType<typeof splitSections>;
  try {
    doc = splitSections(parseMarkdown(text.slice(0, MAX_HANDOFF_CHARS)), KNOWN);
  } catch (err) {
    problems.push({ file, message: `handoff is not readable Markdown: ${sanitizeLine(String(err)).slice(0, 120)}` });
    return { handoff, problems };
  }

  const fields = new Map<string, string>();
  for (const node of [...doc.preamble, ...doc.sections.flatMap((s) => s.nodes)]) {
    if (node.type !== 'paragraph') continue;
    for (const [k, v] of boldFields(node)) if (!fields.has(k)) fields.set(k, v);
  }
  const byRole = (role: Role): RootContent[] =>
    doc.sections.filter((s) => (SECTION_ROLES[role] as readonly string[]).includes(s.key)).flatMap((s) => s.nodes);
  const has = (key: string): boolean => doc.sections.some((s: Section) => s.key === key);

  const rawTime = firstLine(byRole('timestamp')) ?? fields.get('checkpoint time') ?? fields.get('timestamp') ?? null;
  if (rawTime !== null && rawTime !== '') {
    const iso = toIso(rawTime);
    handoff.timestamp = iso ?? sanitizeLine(rawTime);
    if (iso === null) problems.push({ file, message: `handoff timestamp "${sanitizeLine(rawTime).slice(0, 60)}" is not a date` });
  }
  handoff.reason = clean(firstLine(byRole('reason')) ?? fields.get('reason') ?? null);
  handoff.planPath = clean(firstLine(byRole('planPath')) ?? fields.get('plan path') ?? null);

  const planShape = fields.has('checkpoint time') || fields.has('plan path') || has('task state');
  handoff.members = readMembers(byRole('team'), planShape);
  const tasks = readTasks(byRole('tasks'), file, problems);
  handoff.tasks = tasks.tasks;
  handoff.reviews = dedupeReviews([...tasks.reviews, ...readReviews(byRole('reviews'), file, problems)]);
  handoff.notes = readNotes(byRole('notes'));

  if (planShape) handoff.shape = 'plan';
  else if (has('plan path') || has('current task notes')) handoff.shape = 'current';
  else if (doc.sections.some((s) => KNOWN.has(s.key))) handoff.shape = 'january';
  else problems.push({ file, message: 'handoff has none of the expected sections (Timestamp, Reason, Task States, …)' });
  return { handoff, problems };
}

function clean(s: string | null): string | null {
  if (s === null) return null;
  const c = sanitizeLine(s).trim();
  return c === '' ? null : c;
}

/** The first non-empty line of a section's text. */
function firstLine(nodes: RootContent[]): string | null {
  for (const node of nodes) {
    if (node.type === 'heading') continue;
    const line = nodeText(node)
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '');
    if (line !== undefined) return line;
  }
  return null;
}

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
  return label
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '-')
    .replace(/s$/, '');
}

function readMembers(nodes: RootContent[], planShape: boolean): { name: string; role: string }[] {
  const members: { name: string; role: string }[] = [];
  const add = (name: string, role: string): void => {
    const n = sanitizeLine(name).trim();
    if (n !== '' && !members.some((m) => m.name === n)) members.push({ name: n, role: sanitizeLine(role).trim() || 'member' });
  };
  for (const item of items(nodes)) {
    const line = sanitizeLine(itemOwnText(item)).trim();
    const kv = keyValue(line);
    if (!kv) {
      add(line, 'member');
      continue;
    }
    const [key, value] = kv;
    // January lists `name: agent-type`; seed 003 lists `Role label: name, name`.
    const isLabel = planShape || value.includes(',') || /\s/.test(key) || /^[A-Z]/.test(key);
    if (isLabel) for (const name of value.split(',')) add(name, roleOfLabel(key));
    else add(key, value);
  }
  for (const node of nodes) {
    if (node.type !== 'table') continue;
    const [header, ...rows] = tableRows(node);
    const col = (names: string[]): number => (header ?? []).findIndex((h) => names.includes(h.toLowerCase()));
    const nameCol = col(['name', 'member', 'agent']);
    const roleCol = col(['role', 'type', 'agent type']);
    for (const row of rows) if (nameCol >= 0) add(row[nameCol] ?? '', roleCol >= 0 ? (row[roleCol] ?? '') : 'member');
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
  const w = sanitizeLine(raw).trim().toLowerCase().replace(/[\s-]+/g, '_');
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

function readTasks(nodes: RootContent[], file: string, problems: Problem[]): { tasks: Task[]; reviews: Review[] } {
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
        const task: Task = { id: normalizeTaskId(head.id), subject: head.subject, status: status ?? checked, owner: null, blockedBy: [] };
        for (const sub of subItems(item)) {
          const kv = keyValue(sanitizeLine(itemOwnText(sub)).trim());
          if (!kv) continue;
          const [key, value] = kv;
          const k = key.toLowerCase();
          if (k === 'owner' || k === 'worker' || k === 'assignee') task.owner = owner(value);
          else if (k === 'status') task.status = statusWord(value);
          else if (k === 'blocked by' || k === 'blockedby') task.blockedBy = ids(value);
          else if (/review$/.test(k)) reviews.push({ taskId: task.id, kind: normalizeKind(k), verdict: normalizeVerdict(value), reviewer: null });
        }
        tasks.push(task);
      }
    }
  }
  return { tasks: dedupeTasks(tasks), reviews };
}

function tableTasks(table: Table, file: string, problems: Problem[]): Task[] {
  const [header, ...rows] = tableRows(table);
  const names = (header ?? []).map((h) => h.toLowerCase().replace(/[\s_-]+/g, ' ').trim());
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

function readReviews(nodes: RootContent[], file: string, problems: Problem[]): Review[] {
  const reviews: Review[] = [];
  for (const node of nodes) {
    if (node.type === 'code') {
      const body = node.value.trim();
      if (body === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch (err) {
        problems.push({ file, message: `review tracking block is not JSON: ${sanitizeLine(String(err)).slice(0, 100)}` });
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
          const words = part.replace(/\.\s*$/, '').split(/[\s:=]+/).filter((w) => w !== '');
          let verdict = words.pop() ?? '';
          // Two-word verdicts: "changes requested", "not started".
          const last = words[words.length - 1];
          if (words.length >= 2 && last !== undefined && isVerdictWord(`${last} ${verdict}`)) verdict = `${words.pop()} ${verdict}`;
          if (words.length === 0 || !isVerdictWord(verdict)) continue;
          reviews.push({ taskId, kind: normalizeKind(words.join(' ')), verdict: normalizeVerdict(verdict), reviewer: null });
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

function readNotes(nodes: RootContent[]): string[] {
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
