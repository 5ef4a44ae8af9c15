/**
 * Random hex for the nonces that frame tmux output. Read from the kernel's /dev/urandom: loading
 * node's crypto module (17 modules) cost `tower status` more than the whole read of a small box's
 * files. Where that device can't be read, the Web Crypto API gives the bytes.
 */
import fs from 'node:fs';

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  const buf = Buffer.allocUnsafe(bytes);
  if (!fillFromDevice(buf)) globalThis.crypto.getRandomValues(buf);
  return buf.toString('hex');
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
