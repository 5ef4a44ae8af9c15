import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeJsonLine } from '../../src/commands/json-out.js';

/** A stream that keeps what it is given, taking each piece after `delayMs` (a slow reader). */
function sink(delayMs = 0, highWaterMark = 16 * 1024): { stream: Writable; text: () => string; writes: () => number } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      if (delayMs) setTimeout(done, delayMs);
      else done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8'), writes: () => chunks.length };
}

describe('writeJsonLine', () => {
  it('writes the bytes JSON.stringify gives, and a newline', async () => {
    const value = {
      version: 1,
      skipped: undefined,
      fn: () => 1,
      runs: [{ id: 'a', n: null, nested: { x: [1, 'two', undefined] } }, undefined, 'text', 3],
      empty: [],
      problems: [{ file: null, message: 'quote " and \\ and \u0007 and \ud83d\ude00 and a lone \ud800' }],
      last: 'é',
    };
    const s = sink();
    expect(await writeJsonLine(s.stream, value)).toBe(true);
    expect(s.text()).toBe(`${JSON.stringify(value)}\n`);
  });

  it('never cuts a surrogate pair between two writes, and writes no piece over 16 KB of UTF-8', async () => {
    // Emoji (two UTF-16 units each) after one ASCII character, so pairs straddle every 5,000-unit boundary.
    const long = `x${'\ud83d\ude00'.repeat(20_000)}`;
    const value = { runs: [{ long }, { long: `é${long}` }], wide: '中'.repeat(30_000) };
    const pieces: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        pieces.push(chunk);
        done();
      },
    });
    await writeJsonLine(stream, value);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(`${JSON.stringify(value)}\n`);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(16 * 1024);
      // A piece that ended in half a pair would end in U+FFFD's bytes.
      expect(p.toString('utf8')).not.toContain('\ufffd');
    }
  });

  it('waits for a slow reader instead of queueing the whole output', async () => {
    const runs = Array.from({ length: 400 }, (_, i) => ({ id: `run-${i}`, text: 'y'.repeat(1_000) }));
    const s = sink(1, 8 * 1024);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, s.stream.writableLength)), 0);
    try {
      expect(await writeJsonLine(s.stream, { runs })).toBe(true);
    } finally {
      clearInterval(watch);
    }
    expect(s.text()).toBe(`${JSON.stringify({ runs })}\n`);
    // 400 KB went through a stream that never held much more than its mark and one piece.
    expect(most).toBeLessThan(8 * 1024 + 3 * 5_000 + 2_000);
  });

  it('gives up when the stream is closed under it, and says so', async () => {
    const stream = new PassThrough({ highWaterMark: 1024 });
    const runs = Array.from({ length: 200 }, (_, i) => ({ id: `run-${i}`, text: 'z'.repeat(500) }));
    setTimeout(() => stream.destroy(), 20);
    expect(await writeJsonLine(stream, { runs })).toBe(false);
  });

  it('writes through a real pipe to a reader in another process', async () => {
    const runs = Array.from({ length: 3_000 }, (_, i) => ({
      id: `claude-team:team-${i}`,
      tasks: [{ subject: `Step ${i} — ✓` }],
    }));
    const child = spawn(
      process.execPath,
      ['-e', 'let n=0;process.stdin.on("data",(d)=>n+=d.length).on("end",()=>console.log(n))'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let got = '';
    child.stdout.on('data', (d: Buffer) => (got += d.toString()));
    const ended = new Promise((resolve) => child.on('close', resolve));
    expect(await writeJsonLine(child.stdin, { runs })).toBe(true);
    child.stdin.end();
    await ended;
    expect(Number(got)).toBe(Buffer.byteLength(`${JSON.stringify({ runs })}\n`));
  });
});
