/**
 * The sandbox directory: a new temp dir, or one the user names. A named dir must be empty, new, or
 * a previous sandbox (it carries the `.tower-demo` marker); nothing else is ever written into.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_SOCKET_PREFIX, SANDBOX_MARKER, writeMarker } from '../context/demo-record.js';

export { SANDBOX_MARKER } from '../context/demo-record.js';
/** What a sandbox holds besides the marker; only these are removed when a sandbox is rebuilt. */
export const OWNED = ['projects', 'claude', 'state', '.locks', 'bin'] as const;

/** A directory that can't be used as a sandbox; the message says why. */
export class SandboxDirError extends Error {
  override readonly name = 'SandboxDirError';
}

/** A new sandbox under the system temp dir (`tower-demo-XXXXXX`). */
export function makeTempSandboxDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), DEMO_SOCKET_PREFIX));
}

/** Makes `dir` ready for a fresh sandbox and returns its real path; throws SandboxDirError. */
export function prepareSandboxDir(dir: string): string {
  const abs = path.resolve(dir);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs);
  } catch {
    st = undefined;
  }
  if (st && !st.isDirectory()) throw new SandboxDirError(`${abs} exists and is not a directory`);
  if (!st) fs.mkdirSync(abs, { recursive: true });
  const entries = fs.readdirSync(abs);
  if (entries.length > 0) {
    if (!entries.includes(SANDBOX_MARKER)) {
      throw new SandboxDirError(
        `${abs} is not empty and is not a tower demo sandbox (no ${SANDBOX_MARKER} file); pick a new ` +
          `or empty directory`,
      );
    }
    // A previous sandbox: start over, removing only what a sandbox holds. Its agents may still be
    // writing there (a demo still running): node retries a folder that filled again (ENOTEMPTY), 5 times.
    for (const name of OWNED)
      fs.rmSync(path.join(abs, name), { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
  const real = fs.realpathSync(abs);
  // The pid says the sandbox is in use while it is being built (see old-sandboxes.ts).
  writeMarker(real, `${JSON.stringify({ by: 'tower demo', createdAt: new Date().toISOString(), pid: process.pid })}\n`);
  return real;
}
