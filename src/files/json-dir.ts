/** Reading every JSON file of a directory, or one JSON file, into a parser that collects problems. */
import path from 'node:path';
import type { Problem } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import { listEntries, unsafeName } from './look.js';
import { cleanProblem, jsonProblem, readJson, readListedText, readText, textOrProblem } from './read.js';

/**
 * Reads a JSON file and parses its value with `parse`, adding every problem (of the read or of the
 * parse) to `problems`; null when the file can't be read as JSON.
 */
export function readJsonWith<R extends { problems: Problem[] }>(
  file: string,
  parse: (value: unknown, file: string) => R,
  problems: Problem[],
): R | null {
  const read = readJson(file);
  if (!read.ok) {
    problems.push(cleanProblem(read.problem));
    return null;
  }
  const parsed = parse(read.value, file);
  problems.push(...parsed.problems);
  return parsed;
}

/**
 * `readJsonWith` on every `*.json` file of a directory, by name; dotfiles are passed over and a name
 * with control characters is skipped as a problem (`what` names the kind of file in its message).
 */
export function readJsonFiles<R extends { problems: Problem[] }>(
  dir: string,
  what: string,
  parse: (value: unknown, file: string) => R,
  problems: Problem[],
  skip: (name: string) => boolean = () => false,
): R[] {
  const results: R[] = [];
  eachJsonFile(dir, what, problems, skip, (value, file) => {
    const parsed = parse(value, file);
    for (const p of parsed.problems) problems.push(p);
    results.push(parsed);
  });
  return results;
}

/**
 * Calls `take` with the parsed value of every `*.json` file of a directory, by name, as readJsonFiles
 * reads them; a file that can't be read as JSON is a problem instead. Nothing is made per file but
 * what `take` keeps: a machine's task folders hold thousands of files.
 */
export function eachJsonFile(
  dir: string,
  what: string,
  problems: Problem[],
  skip: (name: string) => boolean,
  take: (value: unknown, file: string) => void,
): void {
  for (const entry of listEntries(dir, problems)) {
    const name = entry.name;
    if (!name.endsWith('.json') || name.startsWith('.') || skip(name)) continue;
    const file = `${dir}${path.sep}${name}`;
    if (unsafeName(name)) {
      problems.push({ file: sanitizeLine(file), message: `${what} file name contains control characters; skipped` });
      continue;
    }
    // A regular file by its listing is read without a stat; anything else the careful way.
    const text = entry.isFile() ? readListedText(file) : textOrProblem(readText(file));
    if (typeof text !== 'string') {
      problems.push(cleanProblem(text));
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      problems.push(cleanProblem(jsonProblem(file, text, err)));
      continue;
    }
    take(value, file);
  }
}
