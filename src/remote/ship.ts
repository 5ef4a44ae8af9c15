/**
 * Running tower's own reader on a box that has no tower: the remote shell gets a `tower` function
 * that starts `node` with a small loader; the loader reads the reader's bundle (its length, a
 * newline, the gzipped bytes) from the ssh channel, writes it to a private temp file, imports it and
 * removes the file, then the same channel carries the protocol. The box needs node and tmux only.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { HostConfig } from '../config/config.js';

/** The single-file reader, next to the bundle this code runs from. */
export function readerBundlePath(): string {
  return fileURLToPath(new URL('./tower-reader.js', import.meta.url));
}

const gzipped = new Map<string, Buffer | null>();

/**
 * The reader's bytes, gzipped (a quarter of the size on the wire); null when this build has none (a test
 * bundle, a source checkout).
 */
export function readReaderBundle(file = readerBundlePath()): Buffer | null {
  if (!gzipped.has(file)) {
    let bytes: Buffer | null = null;
    try {
      bytes = zlib.gzipSync(fs.readFileSync(file));
    } catch {
      bytes = null;
    }
    gzipped.set(file, bytes);
  }
  return gzipped.get(file) ?? null;
}

// No single quote in here: it travels inside one in the remote command line.
const LOADER = [
  'import fs from "node:fs"; import os from "node:os"; import path from "node:path"; import { ' +
    'pathToFileURL } from "node:url"; import zlib from "node:zlib";',
  'const take = (buf, at) => { for (;;) { try { return fs.readSync(0, buf, at, buf.length - at, ' +
    'null); } catch (e) { if (e.code !== "EAGAIN") throw e; } } };',
  'const one = Buffer.alloc(1); let head = "";',
  'for (;;) { if (take(one, 0) === 0) process.exit(3); if (one[0] === 10) break; head += ' +
    'String.fromCharCode(one[0]); }',
  'const body = Buffer.alloc(Number(head)); for (let got = 0; got < body.length; ) { const n = ' +
    'take(body, got); if (n === 0) process.exit(3); got += n; }',
  'const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tower-reader-")); const file = path.join(dir, "reader.mjs");',
  'fs.writeFileSync(file, zlib.gunzipSync(body), { mode: 0o600 }); let m; try { m = await ' +
    'import(pathToFileURL(file).href); } finally { fs.rmSync(dir, { recursive: true, force: true }); }',
  'process.exitCode = await m.main(process.argv.slice(1));',
].join(' ');

/**
 * The remote command line that runs the host's `tower` command line with `tower` being the shipped
 * reader (a shell function shadows any `tower` on PATH; env assignments before it still apply).
 */
export function shipCommand(host: HostConfig): string {
  return (
    `tower() { node --input-type=module -e "$TOWER_LOADER" -- "$@"; }; TOWER_LOADER='${LOADER}'; ` +
    `${host.tower} serve --stdio`
  );
}

/** What goes first on the channel: the gzipped reader's length, a newline, the gzipped reader. */
export function shipPayload(bundle: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${bundle.length}\n`), bundle]);
}

/** Whether a failed start means there is no tower to run there (so shipping the reader may help). */
export function towerMissing(stderr: string, code: number | null): boolean {
  return code === 127 || /command not found|not found$/m.test(stderr);
}
