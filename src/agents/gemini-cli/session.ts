/**
 * Gemini CLI 0.61.0's record of a session: `~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`,
 * one JSON object per line; each model turn (`"type": "gemini"`) carries `tokens` (`input`, `output`,
 * `cached`, `thoughts`, `tool`, `total`). The context in use is the last model turn's input tokens,
 * against the model's window (the Gemini models it offers take 1,048,576). Read from the file's tail
 * only, each line checked field by field (a count a non-negative integer), a line that does not fit
 * skipped. No zod here: the module loads with `tower status`, whose start path holds no validator.
 */
import fs from 'node:fs';
import { isObject } from '../../files/values.js';
import type { AgentUsage } from '../types.js';

/** The context window of the Gemini models (gemini-2.5-*, gemini-3*). */
export const GEMINI_WINDOW = 1_048_576;
/** How much of the file's end is read. */
const TAIL_BYTES = 512 * 1024;

const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** A model turn's token counts, or null when the record is not one (or a count is not a count). */
function turnTokens(raw: unknown): { input: number; output: number; cached: number } | null {
  if (!isObject(raw) || raw.type !== 'gemini' || !isObject(raw.tokens)) return null;
  const { input, output, cached } = raw.tokens;
  if (!count(input) || !count(output) || (cached !== undefined && !count(cached))) return null;
  return { input, output, cached: cached ?? 0 };
}

/** The usage the session's last model turn says, or null (no such turn, or a file that cannot be read). */
export function sessionUsage(file: string, window = GEMINI_WINDOW): AgentUsage | null {
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const start = Math.max(0, size - TAIL_BYTES);
      const buf = Buffer.alloc(size - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      text = buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.includes('"gemini"')) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const t = turnTokens(raw);
    if (!t) continue;
    const { input, output, cached } = t;
    return {
      used: input,
      window,
      usedPct: Math.min(100, Math.round((input / window) * 100)),
      tokens: { input, output, cacheRead: cached, cacheWrite: 0 },
    };
  }
  return null;
}
