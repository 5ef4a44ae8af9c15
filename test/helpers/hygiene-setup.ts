/**
 * The suite's own mess check. Before any test: one parent directory for this run's temp files
 * (TMPDIR points there, so every `os.tmpdir()` in tests and in the towers they spawn lands in it)
 * and a run id that every test tmux socket name carries. After the last test: anything left in
 * that parent, or any tmux socket (or server) of this run, fails the run, listed by name.
 * Runs of other worktrees on the same machine have other ids and other parents: never counted.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tmuxSocketDir } from './leftovers.js';

function ownSockets(runId: string): string[] {
  try {
    return fs.readdirSync(tmuxSocketDir()).filter((n) => n.startsWith('tower-') && n.includes(runId));
  } catch {
    return [];
  }
}

export default function setup(): () => void {
  const runId = crypto.randomBytes(4).toString('hex');
  // Short: unix socket paths made under it (ssh control sockets) must stay below 108 bytes.
  const parent = path.join(fs.realpathSync(os.tmpdir()), `tower-run-${runId}`);
  fs.mkdirSync(parent, { mode: 0o700 });
  const outerTmp = process.env.TMPDIR;
  process.env.TMPDIR = parent;
  process.env.TOWER_TEST_RUN = runId;
  return () => {
    // Tools' own caches (tsx keeps one under TMPDIR) are not a test's leftovers; they go with the parent.
    const leftFiles = fs.readdirSync(parent).filter((n) => n.startsWith('tower-'));
    const leftSockets = ownSockets(runId);
    // Servers still running on those sockets are stopped, so a failed check does not leave them too.
    for (const name of leftSockets) {
      try {
        execFileSync('tmux', ['-L', name, 'kill-server'], { stdio: 'ignore', timeout: 5000 });
      } catch {
        // No server answered: only the socket file is left.
      }
      fs.rmSync(path.join(tmuxSocketDir(), name), { force: true });
    }
    fs.rmSync(parent, { recursive: true, force: true });
    if (outerTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outerTmp;
    const lines = [...leftFiles.map((f) => `temp: ${f}`), ...leftSockets.map((s) => `tmux socket: ${s}`)];
    if (lines.length > 0) {
      throw new Error(
        `the tests left ${lines.length} thing${lines.length === 1 ? '' : 's'} behind (now removed):\n  ${lines.join('\n  ')}`,
      );
    }
  };
}
