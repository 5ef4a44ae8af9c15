/**
 * Random hex for the nonces that frame tmux output. Read from the kernel's /dev/urandom: loading
 * node's crypto module (17 modules) cost `tower status` more than the whole read of a small box's
 * files. Where that device can't be read, the Web Crypto API gives the bytes.
 */
import fs from 'node:fs';

/**
 * Bytes read from the device at once and handed out as asked: one read of 512 in place of an open,
 * a stat, a read and a close per nonce (a poll's nonces cost ~1.3 ms a tick read one by one,
 * test/bench/serve-preview.bench.ts). Each byte is handed out once and never written anywhere.
 */
const POOL_BYTES = 512;
let pool: Buffer = Buffer.alloc(0);
let used = 0;

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) return freshBytes(bytes).toString('hex');
  if (used + bytes > pool.length) {
    pool = freshBytes(POOL_BYTES);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  // Handed out: overwritten, so no later read of the pool can see it.
  pool.fill(0, used, used + bytes);
  used += bytes;
  return hex;
}

function freshBytes(bytes: number): Buffer {
  const buf = Buffer.allocUnsafe(bytes);
  if (!fillFromDevice(buf)) globalThis.crypto.getRandomValues(buf);
  return buf;
}

function fillFromDevice(buf: Buffer): boolean {
  let fd: number;
  try {
    fd = fs.openSync('/dev/urandom', fs.constants.O_RDONLY | fs.constants.O_NOCTTY);
  } catch {
    return false;
  }
  try {
    // A device that is not the kernel's random source (a file, a terminal) is not trusted.
    if (!fs.fstatSync(fd).isCharacterDevice()) return false;
    let filled = 0;
    while (filled < buf.length) {
      const n = fs.readSync(fd, buf, filled, buf.length - filled, null);
      if (n <= 0) return false;
      filled += n;
    }
    return true;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}
