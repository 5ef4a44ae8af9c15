/**
 * A terminal that goes away under tower (the ssh link drops, the window is closed), and the
 * signals that stop it: the real `tower` (bundled from the current source) in a pane of a private
 * tmux server, the pane then killed or the process signalled. Afterwards nothing tower started is
 * left (the demo's server, its agents, its sandbox), what it set on its pane is put back, the exit
 * code says why, and nothing was printed (no EIO stack, no `Assertion failed … ResetStdio`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../scripts/render/stage.js';
import { captureText, killPrivateServer, openStage, waitForScreen } from '../../scripts/render/stage.js';
import { shellQuote } from '../../src/demo/panes.js';
import { TmuxClient } from '../../src/tmux/client.js';
import type { Box } from '../helpers/box.js';
import { buildBox } from '../helpers/box.js';
import { removeAfterFile, removeTree } from '../helpers/leftovers.js';
import { killServersAndWait, uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { buildTowerFromSource } from './demo-operator.js';

let work: string;
let tower: string;
let box: Box;
const stages: Stage[] = [];
const demoSockets: string[] = [];

/**
 * A parent that outlives the terminal (it ignores the hang-up) and writes down how tower ended:
 * `<name>.pid` is tower's pid, `<name>.code` its exit code or signal, `<name>.err` its stderr.
 */
const WRAPPER = `
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const [out, ...argv] = process.argv.slice(2);
process.on('SIGHUP', () => {});
const child = spawn(process.execPath, argv, { stdio: ['inherit', 'inherit', fs.openSync(out + '.err', 'a')] });
fs.writeFileSync(out + '.pid', String(child.pid));
child.on('exit', (code, signal) => { fs.writeFileSync(out + '.code', String(code ?? signal)); process.exit(0); });
`;

/** Runs `tower ARGS` in a pane of its own through the wrapper; the files it writes are `<work>/<name>.*`. */
async function openTower(name: string, args: string[], env: Record<string, string> = {}): Promise<Stage> {
  const wrapper = path.join(work, 'wrapper.cjs');
  const argv = [process.execPath, wrapper, path.join(work, name), tower, ...args];
  const stage = await openStage({
    socketName: uniqueSocketName(),
    command: `env -u CI -u CONTINUOUS_INTEGRATION -u NO_COLOR ${argv.map(shellQuote).join(' ')}; exec sleep 3600`,
    cols: 120,
    rows: 40,
    cwd: work,
    env: {
      HOME: path.join(work, 'home'),
      XDG_CONFIG_HOME: path.join(work, 'home', 'config'),
      XDG_STATE_HOME: path.join(work, 'home', 'state'),
      ...env,
    },
  });
  stages.push(stage);
  return stage;
}

/** How the wrapped tower ended: its exit code (or signal) and what it wrote to stderr. */
async function ending(name: string): Promise<{ code: string; stderr: string }> {
  const file = path.join(work, `${name}.code`);
  const code = await waitFor(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8'), 20_000, {
    what: `tower (${name}) to exit`,
  });
  return { code, stderr: fs.readFileSync(path.join(work, `${name}.err`), 'utf8') };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  work = fs.realpathSync(removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-e2e-closed-'))));
  fs.mkdirSync(path.join(work, 'home', 'config'), { recursive: true });
  fs.mkdirSync(path.join(work, 'tmp'));
  fs.writeFileSync(path.join(work, 'wrapper.cjs'), WRAPPER);
  tower = await buildTowerFromSource(path.join(work, 'build'));
  fs.mkdirSync(path.join(work, 'box'));
  box = buildBox(path.join(work, 'box'));
}, 60_000);

afterAll(async () => {
  const servers = [...stages.map((s) => s.tmux), ...demoSockets.map((name) => new TmuxClient({ name }))];
  await killServersAndWait(servers, killPrivateServer);
  if (work) removeTree(work);
}, 30_000);

describe('a closed terminal', () => {
  it("under a demo: the demo's server, agents and sandbox are gone, exit 129, nothing printed", async () => {
    const socket = uniqueSocketName('tower-demo');
    demoSockets.push(socket);
    // The sandbox is made in TMPDIR: a private one shows whether it is left.
    const tmp = path.join(work, 'tmp');
    const stage = await openTower('demo', ['demo', '-L', socket], { TMPDIR: tmp });
    await waitForScreen(stage, /dotagent\s+wf-/, { what: 'the demo to show its runs', timeoutMs: 30_000 });
    const demo = new TmuxClient({ name: socket }, 5000);
    const agents = ((await demo.listPanesOrNull()) ?? []).map((p) => p.pid);
    expect(agents.length).toBeGreaterThanOrEqual(12);
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith('tower-demo-'))).toHaveLength(1);

    // As an ssh disconnect does: the terminal goes, with everything in it.
    await stage.tmux.run(['kill-pane', '-t', stage.paneId]);
    const end = await ending('demo');
    expect(end.code).toBe('129');
    expect(end.stderr).toBe('');
    expect(await demo.listPanesOrNull().catch(() => null)).toBeNull();
    await waitFor(() => agents.every((pid) => !alive(pid)), 10_000, { what: "the demo's agents to end" });
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 90_000);

  it('under the live control room: exit 129, no process left, nothing printed', async () => {
    const flags = [...box.roots.flatMap((r) => ['--root', r]), '--claude-dir', box.claudeDir];
    const stage = await openTower('room', flags);
    await waitForScreen(stage, /q quit/, { what: 'the control room' });
    const pid = Number(fs.readFileSync(path.join(work, 'room.pid'), 'utf8'));
    await stage.tmux.run(['kill-pane', '-t', stage.paneId]);
    const end = await ending('room');
    expect(end.code).toBe('129');
    expect(end.stderr).toBe('');
    expect(alive(pid)).toBe(false);
  }, 60_000);

  it.each([
    ['SIGINT', '130'],
    ['SIGTERM', '143'],
    ['SIGHUP', '129'],
  ] as const)(
    '%s with the terminal open: restored, allow-passthrough put back, exit %s',
    async (signal, code) => {
      const flags = [...box.roots.flatMap((r) => ['--root', r]), '--claude-dir', box.claudeDir];
      const name = `signal-${signal}`;
      const stage = await openTower(name, flags);
      await waitForScreen(stage, /q quit/, { what: 'the control room' });
      // Desktop notifications need tmux's passthrough on tower's own pane: set while it runs.
      const passthrough = () =>
        stage.tmux.run(['show-options', '-p', '-t', stage.paneId, '-v', 'allow-passthrough']).then((s) => s.trim());
      await waitFor(async () => (await passthrough()) === 'on', 10_000, { what: 'allow-passthrough on' });
      const pid = Number(fs.readFileSync(path.join(work, `${name}.pid`), 'utf8'));
      process.kill(pid, signal);
      const end = await ending(name);
      expect(end.code).toBe(code);
      expect(end.stderr).toBe('');
      expect(await passthrough()).toBe('');
      expect(await stage.tmux.displayMessage(stage.paneId, '#{alternate_on}')).toBe('0');
      expect(await captureText(stage)).not.toMatch(/q quit/);
    },
    60_000,
  );
});
