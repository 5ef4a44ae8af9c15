import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonSeen, readListedText, readText } from '../../src/files/read.js';
import { tempDir } from '../helpers/box.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  if (dirs.length === 0) dirs.push(tempDir('tower-read-'));
  const file = path.join(dirs[0] as string, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('reads that share one buffer', () => {
  it('give each file its own text, whatever was read before and whatever its size', () => {
    const big = `{"k":"${'x'.repeat(200 * 1024)}"}`;
    const small = '{"name":"team-a"}';
    const files = {
      big: write('big.json', big),
      small: write('small.json', small),
      mid: write('mid.txt', 'y'.repeat(70 * 1024)),
      tiny: write('tiny.txt', 'z'),
    };
    // Every order of sizes: a small read after a big one must not see the big one's bytes.
    expect(readListedText(files.big)).toBe(big);
    const seen = { mtimeMs: null as number | null };
    const team = readJsonSeen(files.small, seen);
    expect(team).toEqual({ ok: true, value: { name: 'team-a' } });
    expect(seen.mtimeMs).toBe(fs.statSync(files.small).mtimeMs);
    expect(readText(files.mid)).toEqual({ ok: true, value: 'y'.repeat(70 * 1024) });
    expect(readText(files.tiny)).toEqual({ ok: true, value: 'z' });
    expect(readListedText(files.small)).toBe(small);
    expect(readText(files.big)).toEqual({ ok: true, value: big });
    expect(readText(files.tiny)).toEqual({ ok: true, value: 'z' });
  });

  it('still refuses binary content and says so', () => {
    const file = write('bin.json', 'ab\0cd');
    expect(readText(file)).toEqual({ ok: false, problem: { file, message: 'file is binary, expected text' } });
  });
});
