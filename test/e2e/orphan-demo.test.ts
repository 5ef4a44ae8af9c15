/**
 * A demo left running with no control room (built with --no-ui, or its tower killed): a demo that
 * starts says so and offers to stop it, and `tower status --demo` with two demos names which has no
 * control room. Every demo's server lives in a private TMUX_TMPDIR, so no other demo on the box is
 * ever listed, let alone stopped.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../scripts/render/stage.js';
import { killPrivateServer, openStage, waitForScreen } from '../../scripts/render/stage.js';
import { shellQuote } from '../../src/demo/panes.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { removeAfterFile, removeTree } from '../helpers/leftovers.js';
import { runBuilt } from '../helpers/run-built.js';
import { killServersAndWait, uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { buildTowerFromSource } from './demo-operator.js';

let work: string;
let tower: string;
let env: Record<string, string>;
let tmuxDir: string;
const stages: Stage[] = [];
const demos: string[] = [];

/** A demo's socket name, short: the private socket folder's path must stay under 108 bytes. */
const demoSocket = (): string => {
  const name = `tower-demo-${crypto.randomBytes(3).toString('hex')}`;
  demos.push(name);
  return name;
};
const demoServer = (name: string) =>
  new TmuxClient({ path: path.join(tmuxDir, `tmux-${process.getuid?.() ?? 0}`, name) }, 5000);

async function openDemo(args: string[]): Promise<Stage> {
  const argv = [process.execPath, tower, 'demo', ...args];
  const stage = await openStage({
    socketName: uniqueSocketName(),
    command: `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX -u NO_COLOR ${argv.map(shellQuote).join(' ')}; echo TOWER-EXITED $?; exec sleep 3600`,
    cols: 140,
    rows: 40,
    cwd: work,
    env,
  });
  stages.push(stage);
  return stage;
}

beforeAll(async () => {
  // Short on purpose (see demoSocket); removed after the file like any temp folder.
  work = fs.realpathSync(removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-orph-'))));
  tmuxDir = removeAfterFile(fs.mkdtempSync('/tmp/tower-ot-'));
  fs.mkdirSync(path.join(work, 'home', 'config'), { recursive: true });
  env = {
    HOME: path.join(work, 'home'),
    XDG_CONFIG_HOME: path.join(work, 'home', 'config'),
    XDG_STATE_HOME: path.join(work, 'home', 'state'),
    TMUX_TMPDIR: tmuxDir,
  };
  tower = await buildTowerFromSource(path.join(work, 'build'));
}, 60_000);

afterAll(async () => {
  await killServersAndWait([...stages.map((s) => s.tmux), ...demos.map(demoServer)], killPrivateServer);
  if (work) removeTree(work);
  if (tmuxDir) removeTree(tmuxDir);
}, 30_000);

describe('a demo with no control room', () => {
  it('is named by a new demo, which offers to stop it, and by status --demo', async () => {
    const a = demoSocket();
    const b = demoSocket();
    const c = demoSocket();
    const dirA = path.join(work, 'a');
    const dirB = path.join(work, 'b');
    const built = await runBuilt(tower, ['demo', '--no-ui', '-L', a, '--dir', dirA], env);
    expect(built.code, built.stderr).toBe(0);
    expect((await demoServer(a).listPanesOrNull())?.length).toBeGreaterThan(0);

    // B starts beside it: A is named and offered to be stopped; no leaves it running.
    const stageB = await openDemo(['-L', b, '--dir', dirB]);
    await waitForScreen(stageB, /Stop it now\? \[y\/N\]/, { what: 'the offer', timeoutMs: 20_000 });
    // The line may wrap in the pane: read it joined (-J).
    const joined = await stageB.tmux.run(['capture-pane', '-p', '-J', '-t', stageB.paneId]);
    expect(joined).toContain(
      `a demo runs with no control room, its agents still going: -L ${a} (${dirA}, no control room)`,
    );
    await stageB.tmux.sendText(stageB.paneId, 'n');
    await stageB.tmux.sendKey(stageB.paneId, 'Enter');
    await waitForScreen(stageB, /dotagent\s+wf-/, { what: 'demo B to show its runs', timeoutMs: 30_000 });
    expect((await demoServer(a).listPanesOrNull())?.length).toBeGreaterThan(0);

    // Two demos: status --demo names both, and which has no control room.
    await waitFor(async () => (await runBuilt(tower, ['status', '--demo'], env)).stderr.includes(`-L ${b}`), 20_000, {
      what: 'status --demo to see both demos',
    });
    const both = await runBuilt(tower, ['status', '--demo'], env);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain(`-L ${a} (${dirA}, no control room)`);
    expect(both.stderr).toContain(`-L ${b} (${dirB})`);

    // A third demo (built and left, --no-ui) is offered the same: yes stops A, never B.
    const stageC = await openDemo(['--no-ui', '-L', c, '--dir', path.join(work, 'c')]);
    await waitForScreen(stageC, /Stop it now\? \[y\/N\]/, { what: 'the offer to C', timeoutMs: 20_000 });
    await stageC.tmux.sendText(stageC.paneId, 'y');
    await stageC.tmux.sendKey(stageC.paneId, 'Enter');
    await waitForScreen(stageC, /TOWER-EXITED 0/, { what: 'demo C to be built', timeoutMs: 30_000 });
    expect(
      await demoServer(a)
        .listPanesOrNull()
        .catch(() => null),
    ).toBeNull();
    expect((await demoServer(b).listPanesOrNull())?.length).toBeGreaterThan(0);
  }, 150_000);
});
