/**
 * Runs one agent CLI in a private tmux server for a test: a temp dir with its own HOME, TMPDIR and
 * TMUX_TMPDIR (the server listens in that socket folder), the CLI exec'd as the pane's own process.
 * `stop()` (also run after the file, when a test failed half-way) kills the server, waits for every
 * process that carries the socket folder in its environment to end (SIGKILL after 3 s: a CLI that
 * relaunches itself as a child may outlive its pane), runs the caller's own cleanup and removes the
 * dir. The Claude Code, Codex, opencode and Gemini CLI launchers build on it.
 */
import { pidAlive } from '../../src/kit/process-tree.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TmuxClient } from '../../src/tmux/client.js';
import { removeAfterFile, stopAfterFile } from './leftovers.js';
import { waitFor } from './wait-for.js';

export interface CliDirs {
  /** The private dir holding everything below. */
  dir: string;
  home: string;
  /** The project the CLI runs in. */
  project: string;
  tmuxDir: string;
  tmp: string;
  /** The socket of the server the CLI's pane is on (`-S`). */
  socketPath: string;
}

export interface CliPane extends CliDirs {
  tmux: TmuxClient;
  /** The CLI's pane (`%0`). */
  paneId: string;
  /** The pane's own process (the CLI, exec'd). */
  pid: number;
  /** The environment the CLI was started with. */
  env: Record<string, string>;
  /** The visible screen as plain text, trailing blanks trimmed per line (of the CLI's pane, or `paneId`). */
  screen(paneId?: string): Promise<string>;
  /** Waits until the screen holds `want` (a regex or a substring); returns the screen. */
  waitForScreen(want: RegExp | string, timeoutMs?: number, paneId?: string): Promise<string>;
  /** Types `text` literally, then Enter as a key of its own (into the CLI's pane, or `paneId`). */
  submit(text: string, paneId?: string): Promise<void>;
  /** Presses keys (tmux key names). */
  keys(...keys: string[]): Promise<void>;
  stop(): Promise<void>;
}

const uid = () => process.getuid?.() ?? os.userInfo().uid;

/** `s` quoted for sh. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'"'"'`)}'`;
}

/** Writes `value` as JSON, making the folder first. */
export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', () => resolve({ code: null, out }));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Every process whose environment names this TMUX_TMPDIR (the CLI, what it started, their tools). */
function processesOf(tmuxDir: string): number[] {
  const mark = `TMUX_TMPDIR=${tmuxDir}\0`;
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (`${fs.readFileSync(`/proc/${entry}/environ`, 'latin1')}\0`.includes(mark)) pids.push(Number(entry));
    } catch {
      // Ended, or not ours to read.
    }
  }
  return pids;
}

/** Makes the private dirs (`tower-<prefix>-*` under the temp dir, removed after the file). */
export function makeCliDirs(prefix: string): CliDirs {
  const dir = removeAfterFile(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tower-${prefix}-`))));
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  const tmuxDir = path.join(dir, 'tmux');
  const tmp = path.join(dir, 'tmp');
  for (const d of [home, project, tmuxDir, tmp]) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(tmuxDir, `tmux-${uid()}`), { mode: 0o700 });
  return { dir, home, project, tmuxDir, tmp, socketPath: path.join(tmuxDir, `tmux-${uid()}`, 'default') };
}

/**
 * The environment without what marks a CI machine: `CI`, `CONTINUOUS_INTEGRATION` and any `CI_*`.
 * A CLI built on ink reads those as "no terminal" (Gemini CLI then starts non-interactive and exits
 * with "No input provided via stdin"), so on CI the pane would show what no operator ever sees.
 */
export function withoutCiMarks(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([k]) => k !== 'CI' && k !== 'CONTINUOUS_INTEGRATION' && !k.startsWith('CI_')),
  );
}

/** The environment every CLI gets: the private HOME, XDG dirs and temp. */
export function privateEnv(dirs: CliDirs): Record<string, string> {
  return {
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_STATE_HOME: path.join(dirs.home, '.local/state'),
    XDG_DATA_HOME: path.join(dirs.home, '.local/share'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    TMPDIR: dirs.tmp,
    TMUX_TMPDIR: dirs.tmuxDir,
  };
}

/** How a CLI's pane is started and stopped. */
export interface CliPaneOptions {
  /** Pane size; default 160 x 45. */
  columns?: number;
  rows?: number;
  /** The tmux session's name; default `work`. */
  session?: string;
  /** How long `waitForScreen` waits unless told; default 30 s. */
  waitMs?: number;
  /** Runs by `stop()` once every process is gone, before the dir is removed. */
  cleanup?: () => Promise<void> | void;
}

/**
 * Starts `command` (argv) as the pane's process in the dirs' private tmux server. The server starts
 * with the CLI's environment too: what it runs later (split panes, teammates) inherits it.
 */
export async function startCliPane(
  dirs: CliDirs,
  command: string[],
  env: Record<string, string>,
  opts: CliPaneOptions = {},
): Promise<CliPane> {
  const tmux = new TmuxClient({ path: dirs.socketPath }, 5000);
  const sockets = path.join(dirs.tmuxDir, `tmux-${uid()}`);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const all = fs.existsSync(sockets) ? fs.readdirSync(sockets).map((n) => path.join(sockets, n)) : [];
    await Promise.all(all.map((s) => run('tmux', ['-S', s, 'kill-server'], process.env)));
    const left = () => processesOf(dirs.tmuxDir).filter(pidAlive);
    await waitFor(() => left().length === 0, 3000, { intervalMs: 50 }).catch(() => {
      for (const pid of left()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
    });
    await waitFor(() => left().length === 0, 3000, { intervalMs: 50, what: 'the CLI processes to end' }).catch(
      () => {},
    );
    await opts.cleanup?.();
    fs.rmSync(dirs.dir, { recursive: true, force: true });
  };
  stopAfterFile(stop);
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const started = await run(
    'tmux',
    [
      '-S',
      dirs.socketPath,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-P',
      '-F',
      '#{pane_id} #{pane_pid}',
      '-s',
      opts.session ?? 'work',
      '-x',
      String(opts.columns ?? 160),
      '-y',
      String(opts.rows ?? 45),
      '-c',
      dirs.project,
      ...envArgs,
      `exec ${command.map(shellQuote).join(' ')}`,
    ],
    { ...withoutCiMarks(process.env), ...env, TMUX: '' },
  );
  const [paneId, pidText] = started.out.trim().split(' ');
  if (started.code !== 0 || !paneId || !pidText) {
    await stop();
    throw new Error(`tmux did not start the CLI: ${started.out}`);
  }
  // The window keeps its size with no client attached.
  await tmux.run(['set-option', '-g', 'window-size', 'manual']);
  const screen = async (pane = paneId) =>
    (await tmux.run(['capture-pane', '-p', '-t', pane]))
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n');
  const waitForScreen = async (want: RegExp | string, timeoutMs = opts.waitMs ?? 30_000, pane = paneId) => {
    let last = '';
    try {
      return await waitFor(
        async () => {
          last = await screen(pane);
          return (typeof want === 'string' ? last.includes(want) : want.test(last)) && last;
        },
        timeoutMs,
        { intervalMs: 50, what: `${String(want)} on the CLI's screen` },
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- screen ---\n${last}`);
    }
  };
  return {
    ...dirs,
    tmux,
    paneId,
    pid: Number(pidText),
    env,
    screen,
    waitForScreen,
    submit: async (text, pane = paneId) => {
      await tmux.run(['send-keys', '-t', pane, '-l', '--', text]);
      await tmux.run(['send-keys', '-t', pane, 'Enter']);
    },
    keys: async (...keys) => void (await tmux.run(['send-keys', '-t', paneId, ...keys])),
    stop,
  };
}
