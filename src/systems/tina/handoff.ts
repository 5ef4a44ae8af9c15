/**
 * tina's `phase-N/handoff.md`, written by a checkpoint. Three shapes exist (FORMATS.md §2): January
 * (seed 000: team composition, task table, review lines), plan (seed 003: bold fields, task lists under
 * `### Completed`…, review tracking as a JSON block) and current (task table, plan path, task notes).
 * Every section is read by what it holds, whatever the shape, so mixed or edited handoffs still read.
 */
import type { Root, RootContent } from 'mdast';
import type { Problem, Review, Task } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { toIso } from '../../files/values.js';
import { readMembers, readNotes, readReviews, readTasks } from './handoff-sections.js';
import { boldFields, nodeText, splitSections } from './markdown.js';
import type { Section } from './markdown.js';
import { dedupeReviews } from './reviews.js';

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
export const MAX_HANDOFF_CHARS = 32 * 1024;

/**
 * Parses a handoff; never throws. A handoff with none of the known sections is shape 'unknown' with a
 * problem. `parse` turns Markdown into mdast (markdown-reader.ts, loaded on demand by its caller).
 */
export function parseHandoff(
  text: string,
  file: string,
  parse: (markdown: string) => Root,
): { handoff: ParsedHandoff; problems: Problem[] } {
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
    const size = Math.round(text.length / 1024);
    problems.push({ file, message: `handoff is ${size} kB; only the first ${MAX_HANDOFF_CHARS / 1024} kB were read` });
  }
  let doc: ReturnType<typeof splitSections>;
  try {
    doc = splitSections(parse(text.slice(0, MAX_HANDOFF_CHARS)), KNOWN);
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
    if (iso === null) {
      problems.push({ file, message: `handoff timestamp "${sanitizeLine(rawTime).slice(0, 60)}" is not a date` });
    }
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
  else {
    problems.push({ file, message: 'handoff has none of the expected sections (Timestamp, Reason, Task States, …)' });
  }
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
