/**
 * A build box for the ssh tests: a harness project with a pending checkpoint, and the `tower`
 * command line that serves it with its own root, Claude dir, tmux socket, state and config dirs,
 * so nothing reads or writes the machine's real ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFile } from './box.js';
import { closeSocketAfterFile } from './leftovers.js';

export interface RemoteBox {
  name: string;
  /** The harness project root; its run id is `harness:<project>`. */
  root: string;
  stateDir: string;
  /** $XDG_STATE_HOME of the tower on that box (its audit log is under tower/). */
  xdgState: string;
  /** The Claude config dir the box's tower reads (teams under teams/). */
  claudeDir: string;
  socketName: string;
  /** The host's `tower` setting. */
  tower: string;
  /** Opens a pending checkpoint `<name>` on the project. */
  openCheckpoint(name: string): void;
}

/** Lays out a box under `dir` and returns it; `bin` is the tower launcher the box runs. */
export function makeRemoteBox(dir: string, name: string, project: string, bin: string, unique: string): RemoteBox {
  const base = path.join(dir, `box-${name}`);
  const root = path.join(base, 'projects', project);
  const stateDir = path.join(root, '.harness');
  writeFile(path.join(stateDir, 'config.json'), {
    checkpoints: { enabled: true, types: [{ name: 'deploy', description: 'before deploy' }] },
  });
  const openCheckpoint = (cp: string) =>
    writeFile(
      path.join(stateDir, `checkpoint-${cp}.md`),
      `# Checkpoint: ${cp} (manual request)\nRequested at: ${new Date().toISOString()}\nBy: test\n`,
    );
  openCheckpoint('deploy');
  const claudeDir = path.join(base, 'claude');
  fs.mkdirSync(claudeDir, { recursive: true });
  const xdgState = path.join(base, 'state');
  // A tmux server a test starts for the box is stopped after the file, its socket removed.
  const socketName = closeSocketAfterFile(`tower-test-${unique}-${name}`);
  const env = [
    `HOME=${base}`,
    `XDG_STATE_HOME=${xdgState}`,
    `XDG_CONFIG_HOME=${path.join(base, 'config')}`,
    `CLAUDE_CONFIG_DIR=${claudeDir}`,
  ];
  const tower = `${env.join(' ')} ${process.execPath} ${bin} --root ${root} --claude-dir ${claudeDir} -L ${socketName}`;
  return { name, root, stateDir, xdgState, claudeDir, socketName, tower, openCheckpoint };
}
