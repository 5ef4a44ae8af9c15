/**
 * Gemini CLI 0.61.0's record of a session: `~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`,
 * one JSON object per line; each model turn (`"type": "gemini"`) carries `tokens` (`input`, `output`,
 * `cached`, `thoughts`, `tool`, `total`). The context in use is the last model turn's input tokens,
 * against the model's window (the Gemini models it offers take 1,048,576). Read from the file's tail
 * only, each line parsed against a schema, a line that does not parse skipped.
 */
import fs from 'node:fs';
import { z } from 'zod';
import type { AgentUsage } from '../types.js';

/** The context window of the Gemini models (gemini-2.5-*, gemini-3*). */
export const GEMINI_WINDOW = 1_048_576;
/** How much of the file's end is read. */
const TAIL_BYTES = 512 * 1024;

const n = z.number().int().nonnegative();
const TurnSchema = z.object({
  type: z.literal('gemini'),
  model: z.string().max(200).optional(),
  tokens: z.object({ input: n, output: n, cached: n.optional(), thoughts: n.optional(), total: n.optional() }),
});

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
    const t = TurnSchema.safeParse(raw);
    if (!t.success) continue;
    const { input, output, cached = 0 } = t.data.tokens;
    return {
      used: input,
      window,
      usedPct: Math.min(100, Math.round((input / window) * 100)),
      tokens: { input, output, cacheRead: cached, cacheWrite: 0 },
    };
  }
  return null;
}
