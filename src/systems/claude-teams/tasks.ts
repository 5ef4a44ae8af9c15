/**
 * A Claude Code team's task folder, `tasks/<team>/<id>.json`: its tasks, read and put in the order
 * of their ids.
 */
import path from 'node:path';
import type { Problem, Task } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { eachJsonFile } from '../../files/json-dir.js';
import { isObject, oneLine } from '../../files/values.js';

/**
 * Reads `<tasksDir>/<id>.json`, sorted by id. Claude Code also keeps `.lock`, `.highwatermark` and
 * `session-*` entries there: not tasks, skipped.
 */
export function readTasks(tasksDir: string, team: string): { tasks: Task[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const notTask = (name: string): boolean => name.startsWith('session-');
  const tasks: Task[] = [];
  eachJsonFile(tasksDir, 'task', problems, notTask, (value, file) => {
    const task = taskOf(value, file, team, problems);
    if (task) tasks.push(task);
  });
  return { tasks: sortByIds(tasks), problems };
}

/** Parses one task file; an owner of '' means nobody. */
export function parseTask(json: unknown, file: string, team: string): { task: Task | null; problems: Problem[] } {
  const problems: Problem[] = [];
  return { task: taskOf(json, file, team, problems), problems };
}

/** parseTask adding its problems to `problems`: nothing is made per task but the task. */
function taskOf(json: unknown, file: string, team: string, problems: Problem[]): Task | null {
  if (!isObject(json)) {
    problems.push({ file, message: 'task is not a JSON object' });
    return null;
  }
  const id = idText(json.id) || sanitizeLine(path.basename(file, '.json'));
  if (typeof json.subject !== 'string') problems.push({ file, message: `task ${id} has no subject` });
  const blockedBy: string[] = [];
  if (Array.isArray(json.blockedBy)) {
    for (const raw of json.blockedBy as unknown[]) {
      const b = idText(raw);
      if (b !== '') blockedBy.push(b);
    }
  }
  return {
    id,
    subject: oneLine(json.subject),
    status: oneLine(json.status) || 'unknown',
    owner: oneLine(json.owner) || null,
    blockedBy,
    team,
  };
}

/**
 * Tasks in compareIds order, each id's number worked out once: a team's files are listed by name
 * ("1", "10", "100", "101", …), so nearly every pair is compared.
 */
function sortByIds(tasks: Task[]): Task[] {
  // Claude Code numbers its tasks: each id and its place packed in one number, sorted natively.
  const packed = new Float64Array(tasks.length);
  for (let i = 0; i < tasks.length; i++) {
    const n = idNumber(tasks[i]?.id ?? '');
    if (n === null || !Number.isInteger(n) || n < 0 || n >= ID_LIMIT || tasks.length > PLACE_LIMIT)
      return sortByIdsSlowly(tasks);
    packed[i] = n * PLACE_LIMIT + i;
  }
  packed.sort();
  // A plain loop: Array.from over a typed array walks it as an iterator (~6 ms for 10,000 tasks).
  const sorted = new Array<Task>(tasks.length);
  for (let i = 0; i < packed.length; i++) sorted[i] = tasks[(packed[i] as number) % PLACE_LIMIT] as Task;
  return sorted;
}

/** What the packing above holds exactly: ids below 2^32, places below 2^20 (2^52 in all). */
const ID_LIMIT = 2 ** 32;
const PLACE_LIMIT = 2 ** 20;

function sortByIdsSlowly(tasks: Task[]): Task[] {
  return [...tasks].sort((a, b) => compareIds(a.id, b.id));
}

/** An id's value as a number, or null when it is not one. */
function idNumber(id: string): number | null {
  const n = Number(id);
  return id.trim() !== '' && Number.isFinite(n) ? n : null;
}

/** Orders ids numerically where both are numbers ("2" before "10"), else as text. */
export function compareIds(a: string, b: string): number {
  const na = idNumber(a);
  const nb = idNumber(b);
  if (na !== null && nb !== null) return na - nb;
  if ((na === null) !== (nb === null)) return na !== null ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An id as text: a number as it is written, else the value as one line. */
function idText(v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return oneLine(v);
}
