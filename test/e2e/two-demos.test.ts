/**
 * Two demos at once, each `tower demo` running for real in a terminal (a pane of a private tmux
 * server): each runs on a tmux server of its own, a second one asking for the first one's server is
 * refused and leaves it alone, an action taken in a demo is audited in its own sandbox (never in
 * the operator's log), `--demo -L NAME` points the command line at either one while both run, and
 * quitting one leaves the other's agents running.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../scripts/render/stage.js';
import { captureText, killPrivateServer, openStage, waitForScreen } from '../../scripts/render/stage.js';
import { servedSandbox } from '../../src/context/demo-record.js';
import { shellQuote } from '../../src/demo/panes.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { runBuilt } from '../helpers/run-built.js';
import { removeAfterFile, removeTree } from '../helpers/leftovers.js';
import { killServersAndWait, uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { buildTowerFromSource, press, selectRun } from './demo-operator.js';

let work: string;
let tower: string;
let home: string;
const stages: Stage[] = [];
const demoSockets: string[] = [];

/** Runs `tower demo ARGS` in a terminal of its own; the shell says how it exited and stays. */
async function openDemo(args: string[]): Promise<Stage> {
  const argv = [process.execPath, tower, 'demo', ...args];
  const command = `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX -u NO_COLOR ${argv.map(shellQuote).join(' ')}; echo TOWER-EXITED $?; exec sleep 3600`;
  const stage = await openStage({
    socketName: uniqueSocketName(),
    command,
    cols: 120,
    rows: 40,
    cwd: work,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state') },
  });
  stages.push(stage);
  return stage;
}

/** The whole lines of an audit log so far, parsed (none while it is missing). */
function auditLines(file: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The pids of the panes on a demo's server, by pane id. */
async function panePids(socket: string): Promise<Map<string, number>> {
  const panes = (await new TmuxClient({ name: socket }, 5000).listPanesOrNull()) ?? [];
  return new Map(panes.map((p) => [p.paneId, p.pid]));
}

beforeAll(async () => {
  work = fs.realpathSync(removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-e2e-two-demos-'))));
  home = path.join(work, 'home');
  fs.mkdirSync(path.join(home, 'config'), { recursive: true });
  tower = await buildTowerFromSource(path.join(work, 'build'));
}, 60_000);

afterAll(async () => {
  const servers = [...stages.map((s) => s.tmux), ...demoSockets.map((name) => new TmuxClient({ name }))];
  await killServersAndWait(servers, killPrivateServer);
  if (work) removeTree(work);
}, 30_000);

describe('two demos', () => {
  it('run side by side on servers of their own; neither stops the other, each audits in its own sandbox', async () => {
    const socketA = uniqueSocketName('tower-demo');
    const socketB = uniqueSocketName('tower-demo');
    demoSockets.push(socketA, socketB);
    const dirA = path.join(work, 'a');
    const dirB = path.join(work, 'b');

    const a = await openDemo(['-L', socketA, '--dir', dirA]);
    await waitForScreen(a, /dotagent\s+wf-/, { what: 'demo A to show its runs', timeoutMs: 30_000 });
    // Built once its server names its sandbox, the last step.
    await waitFor(async () => (await servedSandbox(new TmuxClient({ name: socketA }))) === dirA, 20_000, {
      what: 'demo A to be built',
    });
    const before = await panePids(socketA);
    expect(before.size).toBeGreaterThanOrEqual(12);

    // A second demo asking for A's server is refused at once, and A keeps every agent.
    const refused = await openDemo(['-L', socketA, '--dir', dirB]);
    const said = await waitForScreen(refused, /TOWER-EXITED \d+/, { what: 'the refusal', timeoutMs: 20_000 });
    expect(said).toContain(`tmux server -L ${socketA} is already running`);
    expect(said).toContain('TOWER-EXITED 1');
    // A second demo in A's folder is refused too, naming the demo that runs there.
    const sameDir = await runBuilt(tower, ['demo', '--no-ui', '-L', socketB, '--dir', dirA], { HOME: home });
    expect(sameDir.code).toBe(1);
    expect(sameDir.stderr).toContain(`a demo is running in ${dirA} (tmux server -L ${socketA})`);
    expect(await panePids(socketA)).toEqual(before);

    // B on a server of its own: A is untouched.
    const b = await openDemo(['-L', socketB, '--dir', dirB]);
    const shownB = await waitForScreen(b, /dotagent\s+wf-/, { what: 'demo B to show its runs', timeoutMs: 30_000 });
    expect(await panePids(socketA)).toEqual(before);

    // The command line reaches each demo by its server while both run.
    const statusA = await runBuilt(tower, ['status', '--json', '--demo', '-L', socketA], { HOME: home });
    expect(statusA.stderr).toBe('');
    const rootsA = (JSON.parse(statusA.stdout) as { runs: { root: string | null }[] }).runs.map((r) => r.root);
    expect(rootsA.filter((r) => r !== null).every((r) => r!.startsWith(dirA))).toBe(true);

    // A grant in B's control room is audited in B's sandbox, never in the operator's log.
    await selectRun(b, /dotagent\s+(\S+)/.exec(shownB)?.[1] ?? 'wf-');
    await press(b, 'grant');
    await waitForScreen(b, /Grant ARCHITECTURE of dotagent/, { what: 'the grant dialog' });
    await press(b, 'confirm');
    const auditB = path.join(dirB, 'state', 'tower', 'audit.jsonl');
    // The log exists a moment before its first line is written, and a line may be caught half
    // written: only whole lines count, and the grant's outcome line is waited for.
    const line = await waitFor(() => auditLines(auditB).find((l) => l.outcome !== 'begun'), 10_000, {
      what: "the grant's audit line in B's sandbox",
    });
    expect([line.action, line.target, line.outcome]).toEqual(['grant', 'ARCHITECTURE', 'done']);
    expect(fs.existsSync(path.join(home, 'state', 'tower', 'audit.jsonl'))).toBe(false);
    expect(fs.existsSync(path.join(dirA, 'state', 'tower', 'audit.jsonl'))).toBe(false);

    // Quitting B stops B's server alone.
    await press(b, 'quit');
    await waitForScreen(b, /TOWER-EXITED 0/, { what: 'demo B to quit' });
    await waitFor(async () => (await panePids(socketB)).size === 0, 5000, { what: "B's server to go" });
    expect(await panePids(socketA)).toEqual(before);
    expect(await captureText(a)).not.toContain('TOWER-EXITED');
  }, 120_000);
});
