/** File writing (atomic, like the real systems) and reading shared by the sandbox builder and the fake agents. */
import fs from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Writes text atomically (write-file-atomic: temp file in the same dir, then rename), creating the directory. */
export function writeTextAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic.sync(file, text);
}

/** Writes pretty JSON atomically (two-space indent and a final newline, as the real tools do). */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeTextAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A JSON object from a file, or null when it is missing, empty, garbled or not an object (an agent may be
 * mid-write).
 */
export function readJsonObject(file: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** An ISO timestamp without milliseconds (`2026-01-30T10:00:00Z`), the form tina writes. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An ISO timestamp `minutes` before `now`. */
export function minutesAgo(now: number, minutes: number): string {
  return isoSeconds(now - minutes * 60_000);
}

/** Whether `file` lies strictly inside `dir` (both resolved). */
export function isInside(dir: string, file: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(file));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
