/**
 * Pure parsers of the harness (Papercusp) state files: config.json, the checkpoint Markdown, the
 * `.granted` sentinel and the names in the state directory. No disk access here.
 */
import type { Problem } from '../../model/model.js';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';
import { cleanProblem, parseJson } from '../../files/read.js';
import { isObject, toIso } from '../../files/values.js';

/** A checkpoint name as the harness accepts it (`checkpoint-<name>.md`). */
export const CHECKPOINT_NAME = /^[A-Za-z0-9_.-]+$/;

/** A declared checkpoint type from `config.json` → `checkpoints.types[]`. */
export interface CheckpointType {
  name: string;
  description: string | null;
  triggerDoc: string | null;
  /** `post-planner`, `pre-done`, `feature-claim:db`, or null (the orchestrator decides). */
  triggerOn: string | null;
}

/** What the control room uses from `config.json`. */
export interface HarnessConfig {
  /** `checkpoints.enabled`, false when absent. */
  enabled: boolean;
  types: CheckpointType[];
  /** `models`: role → model name. */
  models: Record<string, string>;
}

export const EMPTY_HARNESS_CONFIG: HarnessConfig = { enabled: false, types: [], models: {} };

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? sanitizeLine(v).trim() : null;
}

/** Reads the parsed JSON of `config.json`; a file without `checkpoints` is valid (nothing declared). */
export function parseHarnessConfig(value: unknown, file: string): { value: HarnessConfig; problems: Problem[] } {
  const problems: Problem[] = [];
  if (!isObject(value)) {
    return { value: EMPTY_HARNESS_CONFIG, problems: [{ file, message: 'expected a JSON object' }] };
  }
  const models: [string, string][] = [];
  if (isObject(value.models)) {
    for (const [role, model] of Object.entries(value.models)) {
      if (typeof model === 'string') models.push([sanitizeLine(role), sanitizeLine(model)]);
    }
  }
  const types: CheckpointType[] = [];
  let enabled = false;
  const cp = value.checkpoints;
  if (cp !== undefined && cp !== null) {
    if (!isObject(cp)) {
      problems.push({ file, message: '`checkpoints` is not an object' });
    } else {
      enabled = cp.enabled === true;
      if (cp.types !== undefined && !Array.isArray(cp.types)) {
        problems.push({ file, message: '`checkpoints.types` is not a list' });
      }
      const list: unknown[] = Array.isArray(cp.types) ? cp.types : [];
      list.forEach((t, i) => {
        const name = isObject(t) && typeof t.name === 'string' ? t.name : null;
        if (!isObject(t) || name === null) {
          problems.push({ file, message: `checkpoints.types[${i}] has no name` });
        } else if (!CHECKPOINT_NAME.test(name)) {
          problems.push({
            file,
            message: `checkpoints.types[${i}]: invalid name "${sanitizeLine(name).slice(0, 80)}"`,
          });
        } else {
          types.push({
            name,
            description: text(t.description),
            triggerDoc: text(t.triggerDoc),
            triggerOn: text(t.triggerOn),
          });
        }
      });
    }
  }
  return { value: { enabled, types, models: Object.fromEntries(models) }, problems };
}

/** `parseHarnessConfig` on raw text: empty or half-written JSON is a problem, not a crash. */
export function parseHarnessConfigText(raw: string, file: string): { value: HarnessConfig; problems: Problem[] } {
  const json = parseJson(file, raw);
  if (!json.ok) return { value: EMPTY_HARNESS_CONFIG, problems: [cleanProblem(json.problem)] };
  return parseHarnessConfig(json.value, file);
}

/** What a checkpoint file says about itself. */
export interface CheckpointDoc {
  /** The first Markdown heading (`Checkpoint: plan-approval (auto, triggerOn=post-planner)`). */
  heading: string | null;
  /** `Requested at:` (ISO when parseable, else the raw text). */
  requestedAt: string | null;
  /** `Trigger:` of an automatic checkpoint. */
  trigger: string | null;
  /** `By:` of a manual request. */
  by: string | null;
  /** The whole body, sanitized. */
  body: string;
}

function field(lines: string[], key: string): string | null {
  const prefix = `${key}:`;
  for (const line of lines) {
    if (line.startsWith(prefix)) return line.slice(prefix.length).trim() || null;
  }
  return null;
}

/** Parses `checkpoint-<name>.md` (the auto and the manual templates; anything else keeps its body). */
export function parseCheckpointDoc(raw: string, _file: string): { value: CheckpointDoc; problems: Problem[] } {
  const body = sanitize(raw);
  const lines = body.split('\n').map((l) => l.trim());
  const headingLine = lines.find((l) => /^#{1,6}\s+\S/.test(l));
  const heading = headingLine ? headingLine.replace(/^#{1,6}\s+/, '').trim() : null;
  const requested = field(lines, 'Requested at');
  return {
    value: {
      heading,
      requestedAt:
        requested === null ? null : ((/^\d{4}-\d{2}-\d{2}/.test(requested) ? toIso(requested) : null) ?? requested),
      trigger: field(lines, 'Trigger'),
      by: field(lines, 'By'),
      body,
    },
    problems: [],
  };
}

/**
 * A short description from a checkpoint heading: `Checkpoint: pre-done (manual request)` says
 * "manual request" once the name (already in the title) is dropped.
 */
export function describeHeading(heading: string, name: string): string {
  const prefix = `Checkpoint: ${name}`;
  if (!heading.startsWith(prefix)) return heading;
  const rest = heading
    .slice(prefix.length)
    .trim()
    .replace(/^\((.*)\)$/, '$1')
    .trim();
  return rest === '' ? heading : rest;
}

/** `granted at <ISO>` → the ISO time, or null when the sentinel says nothing parseable (an empty `touch` is valid). */
export function parseGrantedFile(raw: string, _file: string): { value: string | null; problems: Problem[] } {
  const m = /granted at\s+(\d{4}-\d{2}-\d{2}\S*)/i.exec(raw);
  return { value: m ? toIso(m[1]) : null, problems: [] };
}

/** What a name in the state directory is to the checkpoint protocol. */
export type StateEntry =
  | { kind: 'pending'; name: string }
  | { kind: 'granted'; name: string }
  | { kind: 'fired'; name: string }
  | { kind: 'bad-name'; name: string }
  | { kind: 'other' };

/**
 * Classifies a file name of the state directory (`checkpoint-x.md`, `checkpoint-x.md.granted`,
 * `.checkpoint-x.fired`).
 */
export function classifyStateEntry(fileName: string): StateEntry {
  const m =
    /^checkpoint-(.+)\.md$/.exec(fileName) ??
    /^checkpoint-(.+)\.md\.granted$/.exec(fileName) ??
    /^\.checkpoint-(.+)\.fired$/.exec(fileName);
  if (!m) return { kind: 'other' };
  const name = m[1] ?? '';
  if (!CHECKPOINT_NAME.test(name)) return { kind: 'bad-name', name: sanitizeLine(name) };
  if (fileName.endsWith('.granted')) return { kind: 'granted', name };
  if (fileName.endsWith('.fired')) return { kind: 'fired', name };
  return { kind: 'pending', name };
}
