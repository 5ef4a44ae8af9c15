/**
 * Builds the demo sandbox: the state files of every system, a private tmux server with a fake
 * agent in each pane, and Claude Code team configs naming those panes. Tests and the screenshot
 * script build it on their own `-L` socket; `tower demo` builds it on `tower-demo`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SANDBOX_OPTION, readDemoRecord, serverRuns, servedSandbox, writeDemoRecord } from '../context/demo-record.js';
import { TmuxClient } from '../tmux/client.js';
import { DemoNotBuiltError, demoAgentScript } from './agent-path.js';
import { ROLE_PROGRAMS, startSessions } from './panes.js';
import { pidAlive } from '../kit/process-tree.js';
import { waitGone } from './processes.js';
import type { SandboxLayout } from './plan.js';
import { writeTeamConfig } from './runs/claude-teams.js';
import { demoRuns } from './runs/index.js';
import { SandboxDirError, prepareSandboxDir } from './sandbox-dir.js';

/** Options of buildSandbox. */
export interface SandboxOptions {
  /** The tmux socket name (`-L`) of the sandbox's private server. */
  socketName: string;
  /** Agent speed multiplier (1 = the pace a newcomer watches; tests use more). */
  agentSpeed?: number;
  /** The built agent script (default: dist/demo-agent.js next to the running code). */
  agentScript?: string;
  /** The node binary agents run with (default: this process's). */
  nodePath?: string;
  /** Where tmux keeps its sockets (`TMUX_TMPDIR`); default this process's environment. */
  env?: NodeJS.ProcessEnv;
}

/** The demo's tmux server name is taken: a demo never stops a server it did not start. */
export class DemoServerBusyError extends Error {
  override readonly name = 'DemoServerBusyError';
}

/** A running sandbox. */
export interface DemoSandbox {
  /** The sandbox root (real path). */
  dir: string;
  /** The sandbox's own Claude Code config dir. */
  claudeDir: string;
  /** The project roots that hold state dirs. */
  roots: string[];
  socketName: string;
  /** `XDG_STATE_HOME` of the demo's actions: the audit log and hook events stay in the sandbox. */
  stateHome: string;
  /** `<session>/<member>` → tmux pane id. */
  panes: ReadonlyMap<string, string>;
  /** One line per run, saying what it shows. */
  summaries: string[];
  /** Kills the sandbox's tmux server (its agents die with their panes) and waits for them to go. */
  stop(): Promise<void>;
}

/** How long a tmux command of the ending may take: a machine under load answers slowly, not never. */
const STOP_TMUX_TIMEOUT_MS = 5000;

/**
 * Kills the server and waits until it has gone: `kill-server` returns while the server is still
 * shutting down, and a client connecting then gets "server exited unexpectedly". A server that does
 * not answer (a loaded machine: `kill-server` timed out) is ended by its pid, first SIGTERM, then
 * SIGKILL, so that a demo never outlives the tower that started it.
 */
async function killServerAndWait(tmux: TmuxClient, serverPid: number | null = null): Promise<void> {
  const socket = await tmux
    .run(['display-message', '-p', '#{socket_path}'], { timeoutMs: STOP_TMUX_TIMEOUT_MS })
    .catch(() => '');
  const killed = await tmux.killServer(STOP_TMUX_TIMEOUT_MS).then(
    () => true,
    () => false,
  );
  if (!killed && serverPid !== null) await endByPid(serverPid);
  const end = Date.now() + 3000;
  while (Date.now() < end) {
    try {
      if ((await tmux.listPanesOrNull()) === null) {
        // A server told to exit stops answering at once, but waits for its clients to go: one left by
        // a control room that was killed (its control client, an orphan) kept it running for good.
        if (serverPid !== null) {
          await waitGone([serverPid], 2000);
          if (pidAlive(serverPid)) await endByPid(serverPid);
        }
        return removeSocketFile(socket.trim());
      }
    } catch {
      // still shutting down
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  if (serverPid !== null && pidAlive(serverPid)) await endByPid(serverPid);
}

/** SIGTERM, a moment to go, then SIGKILL. */
async function endByPid(pid: number): Promise<void> {
  signal(pid, 'SIGTERM');
  await waitGone([pid], 2000);
  if (pidAlive(pid)) signal(pid, 'SIGKILL');
  await waitGone([pid], 2000);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/**
 * tmux leaves its socket file behind when its server is killed: the demo's server was started by the
 * demo, so its file goes with it (else each demo left one more in the socket folder).
 */
function removeSocketFile(file: string): void {
  if (!file) return;
  try {
    if (fs.lstatSync(file).isSocket()) fs.unlinkSync(file);
  } catch {
    // Gone already, or not ours to remove: nothing to do.
  }
}

/** Links named after the agent CLIs the demo's agents stand in for, each to `node`; returns the folder. */
function linkPrograms(dir: string, node: string): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of new Set(Object.values(ROLE_PROGRAMS))) fs.symlinkSync(node, path.join(dir, name));
  return dir;
}

/** Refuses a server name in use, and a folder whose demo still runs; throws the error that says which. */
async function refuseBusy(dir: string, socketName: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (await serverRuns(env, socketName))
    throw new DemoServerBusyError(
      `tmux server -L ${socketName} is already running; a demo starts a server of its own and never ` +
        `stops another: name a free one with -L, or leave -L out`,
    );
  const abs = path.resolve(dir);
  const old = fs.existsSync(abs) ? readDemoRecord(fs.realpathSync(abs)) : null;
  if (old && (await servedSandbox(new TmuxClient({ name: old.socketName }))) === old.dir)
    throw new SandboxDirError(
      `a demo is running in ${old.dir} (tmux server -L ${old.socketName}); quit it (q) or stop it ` +
        `with tmux -L ${old.socketName} kill-server, or pick another --dir`,
    );
}

/**
 * Builds the sandbox in `dir` (created if missing; refused if it holds anything but an old sandbox,
 * or a demo that still runs) on a new tmux server named `socketName` (refused if one runs there).
 */
export async function buildSandbox(dir: string, opts: SandboxOptions): Promise<DemoSandbox> {
  const script = opts.agentScript ?? demoAgentScript();
  if (!fs.existsSync(script)) throw new DemoNotBuiltError(script);
  await refuseBusy(dir, opts.socketName, opts.env ?? process.env);
  const root = prepareSandboxDir(dir);
  const layout: SandboxLayout = {
    dir: root,
    claudeDir: path.join(root, 'claude'),
    projectsDir: path.join(root, 'projects'),
    now: Date.now(),
    speed: opts.agentSpeed ?? 1,
  };
  const runs = demoRuns(layout);
  for (const run of runs) run.write();

  const tmux = new TmuxClient({ name: opts.socketName });
  const roots = runs.flatMap((r) => (r.root ? [r.root] : []));
  const stateHome = path.join(root, 'state');
  let panes: Map<string, string>;
  let serverPid: number | null = null;
  try {
    const node = opts.nodePath ?? process.execPath;
    panes = await startSessions(
      tmux,
      runs.flatMap((r) => r.sessions),
      { node, script, programs: linkPrograms(path.join(root, 'bin'), node) },
    );
    // Written last, as Claude Code does: a member's pane exists before the config names it.
    for (const run of runs) for (const team of run.teams) writeTeamConfig(layout.claudeDir, team, panes);
    // The server names its sandbox, and the sandbox what runs there: `--demo` finds both.
    await tmux.run(['set-option', '-g', SANDBOX_OPTION, root]);
    serverPid = Number(await tmux.run(['display-message', '-p', '#{pid}'])) || null;
    writeDemoRecord({
      dir: root,
      socketName: opts.socketName,
      roots,
      claudeDir: layout.claudeDir,
      stateHome,
      pid: process.pid,
    });
  } catch (err) {
    await killServerAndWait(tmux, serverPid).catch(() => undefined);
    throw err;
  }

  return {
    dir: root,
    claudeDir: layout.claudeDir,
    roots,
    socketName: opts.socketName,
    stateHome,
    panes,
    summaries: runs.map((r) => r.summary),
    stop: async () => {
      const listed = await new TmuxClient({ name: opts.socketName }, STOP_TMUX_TIMEOUT_MS)
        .listPanesOrNull()
        .catch(() => null);
      const pids = (listed ?? []).map((p) => p.pid).filter((p) => p > 0);
      await killServerAndWait(tmux, serverPid);
      await waitGone(pids, 3000);
      // An agent that outlived its pane (it ignored the hang-up) is not left behind.
      for (const pid of pids.filter(pidAlive)) signal(pid, 'SIGKILL');
      await waitGone(pids, 2000);
    },
  };
}
