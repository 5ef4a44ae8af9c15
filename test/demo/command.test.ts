/**
 * `tower demo` as a command: --no-ui builds the sandbox on its socket, leaves the agents running
 * and prints commands that work; it refuses a foreign --dir, a missing terminal, a missing tmux.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_TMUX_MESSAGE, runDemo } from '../../src/demo/command.js';
import { SANDBOX_MARKER } from '../../src/demo/sandbox-dir.js';
import type { Snapshot } from '../../src/model/model.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { testContext } from '../helpers/context.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { bundle, removeTempDirs, tempDir } from './support.js';

const run = promisify(execFile);

let cliDir: string;
const servers: TmuxClient[] = [];

beforeAll(async () => {
  // The CLI and its agents, bundled from the current source the way `npm run build` does.
  cliDir = await bundle({ cli: 'src/cli/cli.ts', 'demo-agent': 'src/demo/agent.ts' });
  fs.writeFileSync(
    path.join(cliDir, 'tower.mjs'),
    "const m = await import('./cli.js');\nprocess.exitCode = await m.main(process.argv.slice(2));\n",
  );
});

afterEach(async () => {
  for (const s of servers.splice(0)) await s.killServer();
});

afterAll(() => removeTempDirs());

function demoContext(socketName: string) {
  const ctx = testContext({ claudeDir: path.join(tempDir(), 'unused-claude'), socketName });
  const server = new TmuxClient({ name: socketName }, 5000);
  servers.push(server);
  return { ctx, server };
}

/** Runs the bundled CLI; resolves with its exit code and output. */
async function tower(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [path.join(cliDir, 'tower.mjs'), ...args], { env, timeout: 20_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Splits a printed shell line into words (the demo quotes with single quotes). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? ''),
  );
}

describe('tower demo --no-ui', () => {
  it('builds the sandbox in --dir, leaves its agents running, and prints commands that work', async () => {
    const socket = uniqueSocketName();
    const { ctx, server } = demoContext(socket);
    const dir = path.join(tempDir(), 'sandbox');
    const code = await runDemo(ctx, {
      ui: false,
      dir,
      socketName: socket,
      agentScript: path.join(cliDir, 'demo-agent.js'),
    });
    expect(code, ctx.stderr()).toBe(0);
    expect(fs.existsSync(path.join(dir, SANDBOX_MARKER))).toBe(true);
    const panes = await server.listPanes();
    expect(panes.length).toBeGreaterThanOrEqual(12);
    expect(panes.every((p) => p.cwd.startsWith(path.join(dir, 'projects')))).toBe(true);

    const out = ctx.stdout();
    expect(out).toContain(`sandbox ready at ${dir}`);
    expect(out).toContain(`tmux -L ${socket} kill-server`);
    expect(out).toContain(`audited in ${path.join(dir, 'state', 'tower', 'audit.jsonl')}`);
    // The printed status line, run as printed (with the bundled CLI in place of bin/tower.js):
    // `--demo -L NAME` finds the sandbox from its server alone.
    const lines = out.split('\n');
    const statusLine = lines[lines.findIndex((l) => l.startsWith('One snapshot')) + 1] ?? '';
    const words = shellWords(statusLine.trim());
    expect(words.slice(2)).toEqual(['status', '--json', '--demo', '-L', socket]);
    const status = await tower(words.slice(2), { ...process.env, XDG_CONFIG_HOME: tempDir() });
    expect(status.stderr).toBe('');
    const snap = JSON.parse(status.stdout) as Snapshot;
    expect(new Set(snap.runs.map((r) => r.system))).toEqual(
      new Set(['tina', 'claude-team', 'harness', 'sage', 'dotagent']),
    );
    expect(
      snap.runs.find((r) => r.id === 'tina:checkout-flow')?.members.filter((m) => m.state === 'alive').length,
    ).toBe(6);

    // An action through --demo is audited in the sandbox, not in the operator's state dir.
    const operatorState = tempDir();
    const env = { ...process.env, XDG_CONFIG_HOME: tempDir(), XDG_STATE_HOME: operatorState };
    const dotagent = snap.runs.find((r) => r.system === 'dotagent')?.id ?? '';
    const grant = await tower(['grant', '--demo', '-L', socket, dotagent, 'ARCHITECTURE'], env);
    expect(grant.code, grant.stderr).toBe(0);
    const audit = fs.readFileSync(path.join(dir, 'state', 'tower', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"target":"ARCHITECTURE"');
    expect(fs.readdirSync(operatorState)).toEqual([]);

    // Stopping as printed leaves nothing running.
    await server.run(['kill-server']);
    await waitFor(() => server.listPanesOrNull().then((p) => p === null), 3000, { what: 'the server to go' });
  });

  it('rebuilds a previous sandbox in the same --dir once its demo has stopped, never while it runs', async () => {
    const socket = uniqueSocketName();
    const { ctx, server } = demoContext(socket);
    const dir = path.join(tempDir(), 'sandbox');
    const opts = { ui: false, dir, socketName: socket, agentScript: path.join(cliDir, 'demo-agent.js') };
    expect(await runDemo(ctx, opts), ctx.stderr()).toBe(0);
    const pids = (await server.listPanes()).map((p) => p.pid);
    fs.writeFileSync(path.join(dir, 'projects', 'sheets-clone', '.papercusp', 'checkpoint-pre-done.md'), 'left over');

    // A second demo in the same folder, on another server: refused, the first untouched.
    const other = uniqueSocketName();
    const second = demoContext(other);
    expect(await runDemo(second.ctx, { ...opts, socketName: other })).toBe(1);
    expect(second.ctx.stderr()).toContain(`a demo is running in ${fs.realpathSync(dir)} (tmux server -L ${socket})`);
    expect(await second.server.listPanesOrNull()).toBeNull();
    // The same server asked for again: refused too.
    expect(await runDemo(second.ctx, opts)).toBe(1);
    expect(second.ctx.stderr()).toContain(`tmux server -L ${socket} is already running`);
    expect((await server.listPanes()).map((p) => p.pid)).toEqual(pids);

    await server.killServer();
    expect(await runDemo(ctx, opts), ctx.stderr()).toBe(0);
    expect(fs.existsSync(path.join(dir, 'projects', 'sheets-clone', '.papercusp', 'checkpoint-pre-done.md'))).toBe(
      false,
    );
    expect((await server.listPanes()).length).toBeGreaterThanOrEqual(12);
  });

  it('takes only the options it uses: --root is refused, -L is honoured', async () => {
    const r = await tower(['demo', '--no-ui', '--root', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("tower demo does not take '--root'");
    const help = await tower(['demo', '--help']);
    expect(help.stdout).toContain('-L, --socket-name');
    for (const flag of ['--root', '--claude-dir', '--socket-path', '--host', '--no-local', '--demo'])
      expect(help.stdout).not.toContain(flag);
  });

  it('refuses a non-empty --dir that is not a sandbox, starting nothing', async () => {
    const socket = uniqueSocketName();
    const { ctx, server } = demoContext(socket);
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'mine');
    expect(await runDemo(ctx, { ui: false, dir, socketName: socket })).toBe(1);
    expect(ctx.stderr()).toMatch(/is not empty and is not a tower demo sandbox/);
    expect(fs.readdirSync(dir)).toEqual(['keep.txt']);
    expect(await server.listPanesOrNull()).toBeNull();
  });

  it('refuses to open the control room without a terminal, building nothing', async () => {
    const socket = uniqueSocketName();
    const { ctx, server } = demoContext(socket);
    const dir = path.join(tempDir(), 'sandbox');
    expect(await runDemo(ctx, { ui: true, dir, socketName: socket })).toBe(1);
    expect(ctx.stderr()).toContain('tower demo --no-ui');
    expect(fs.existsSync(dir)).toBe(false);
    expect(await server.listPanesOrNull()).toBeNull();
  });
});

describe('tower demo without tmux', () => {
  it('says how to install tmux and exits 1', async () => {
    // A PATH with node and nothing else.
    const bin = tempDir();
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const dir = path.join(tempDir(), 'sandbox');
    const r = await tower(['demo', '--no-ui', '--dir', dir], {
      PATH: bin,
      HOME: tempDir(),
      XDG_CONFIG_HOME: tempDir(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${NO_TMUX_MESSAGE}\n`);
    expect(NO_TMUX_MESSAGE).toBe(
      'tower demo needs tmux: apt-get install tmux (Debian/Ubuntu) or brew install tmux (macOS)',
    );
    expect(fs.existsSync(dir)).toBe(false);
  });
});
