/** A process's argv and children as /proc says them (Linux), bounded, for telling which CLI a pane runs. */
import fs from 'node:fs';

/** Bytes of one /proc cmdline read: an argv past this is cut (its first words decide). */
const MAX_ARGV_BYTES = 4096;

/** The process's argv, or null when it is gone or not ours to read. */
export function argvOf(pid: number): string[] | null {
  try {
    const fd = fs.openSync(`/proc/${pid}/cmdline`, 'r');
    try {
      const buf = Buffer.alloc(MAX_ARGV_BYTES);
      const n = fs.readSync(fd, buf, 0, MAX_ARGV_BYTES, 0);
      return buf.subarray(0, n).toString('utf8').split('\0').filter(Boolean);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The process's children (its main thread's), or none when it is gone. */
export function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
