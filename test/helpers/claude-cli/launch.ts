/**
 * Runs the real Claude Code CLI in tmux for a test: a private HOME (never the real ~/.claude) with
 * the config seeded so that no onboarding, trust, API-key or auto-mode screen blocks; the Messages
 * API stand-in as its endpoint; telemetry, updates and nonessential traffic off (there is no network
 * but loopback); agent teams on. Its tmux server listens in a private socket folder (TMUX_TMPDIR),
 * so the `claude-swarm-<pid>` servers the CLI starts for teammates land there too, and `stop()`
 * (also run after the file, when a test failed half-way) ends every server and process in it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TmuxClient } from '../../../src/tmux/client.js';
import { removeAfterFile, stopAfterFile } from '../leftovers.js';
import { withoutCiMarks } from '../cli-pane.js';
import { waitFor } from '../wait-for.js';
import { claudeBinary } from './binary.js';
import { startMessagesApi, type MessagesApi, type Turn } from './messages-api.js';

/** A made-up key: the stand-in accepts anything; the CLI only wants one of the right shape. */
export const STAND_IN_API_KEY = 'sk-ant-api03-standin-key-for-tests-only-000000000000';

export interface ClaudeOptions {
  /** Pane size; default 200 x 50. */
  columns?: number;
  rows?: number;
  /** The Messages API script. */
  script?: Turn[];
  /** Merged over the seeded user settings (`<home>/.claude/settings.json`). */
  settings?: Record<string, unknown>;
  /** More environment for the CLI. */
  env?: Record<string, string>;
  /** More arguments after `claude`. */
  args?: string[];
  /** The tmux session's name; default `work`. */
  session?: string;
  /** Runs after the config is seeded and before the CLI starts (install hooks, write project files). */
  setup?: (dirs: { home: string; claudeDir: string; project: string }) => void | Promise<void>;
}

export interface ClaudeRun {
  /** The private dir holding everything below. */
  dir: string;
  home: string;
  /** `<home>/.claude`: what `--claude-dir` names. */
  claudeDir: string;
  /** The project the CLI runs in (trusted in the seeded config). */
  project: string;
  /** TMUX_TMPDIR of the CLI: its swarm servers' sockets are in `<tmuxDir>/tmux-<uid>/`. */
  tmuxDir: string;
  /** The socket of the server the CLI's pane is on (`-S`). */
  socketPath: string;
  tmux: TmuxClient;
  /** The CLI's pane (`%0`). */
  paneId: string;
  /** The CLI's pid (the pane's own process: it is exec'd, not run under a shell). */
  pid: number;
  api: MessagesApi;
  /** The environment the CLI was started with (what a tower run next to it would see). */
  env: Record<string, string>;
  /** The visible screen as plain text, trailing blanks trimmed per line. */
  screen(paneId?: string): Promise<string>;
  /** Waits until the screen holds `want` (a regex or a substring); returns the screen. */
  waitForScreen(want: RegExp | string, timeoutMs?: number, paneId?: string): Promise<string>;
  /** Waits for the input box with no dialog over it. */
  ready(timeoutMs?: number): Promise<string>;
  /** Types `text` literally, then Enter as a key of its own. */
  submit(text: string, paneId?: string): Promise<void>;
  /** Presses keys (tmux key names). */
  keys(...keys: string[]): Promise<void>;
  /** Ends every tmux server in the private socket folder and every process they ran, closes the API, removes `dir`. */
  stop(): Promise<void>;
}

const uid = () => process.getuid?.() ?? os.userInfo().uid;

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'"'"'`)}'`;
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** The seeded `~/.claude.json`: onboarding done, the project trusted, the key approved, auto-mode offers seen. */
export function seededGlobalConfig(project: string, apiKey = STAND_IN_API_KEY): Record<string, unknown> {
  return {
    hasCompletedOnboarding: true,
    // 2.1.332 offers to make auto mode the default once; these mark the offer and its notice as seen.
    hasResetAutoModeOptInForDefaultOffer: true,
    hasSeenAutoDefaultNudge: true,
    hasSeenAutoDefaultNotice: true,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
  };
}

/** The environment of the CLI: private HOME and temp, the stand-in, no traffic but loopback, agent teams on. */
export function claudeEnv(
  dirs: { home: string; tmuxDir: string; tmp: string },
  apiUrl: string,
): Record<string, string> {
  return {
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_STATE_HOME: path.join(dirs.home, '.local/state'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    TMPDIR: dirs.tmp,
    TMUX_TMPDIR: dirs.tmuxDir,
    PATH: `${path.dirname(claudeBinary())}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: STAND_IN_API_KEY,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_UPDATES: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_FEEDBACK_COMMAND: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1',
  };
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

/** Whether a process runs (a zombie has ended: this box's init may be slow to reap it). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Every process whose environment names this TMUX_TMPDIR (the CLI, its teammates, their tools). */
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

/** Starts the CLI in a private tmux server and waits for it to draw its first screen. */
export async function startClaude(opts: ClaudeOptions = {}): Promise<ClaudeRun> {
  const dir = removeAfterFile(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-claude-'))));
  const home = path.join(dir, 'home');
  const claudeDir = path.join(home, '.claude');
  const project = path.join(dir, 'project');
  const tmuxDir = path.join(dir, 'tmux');
  const tmp = path.join(dir, 'tmp');
  for (const d of [claudeDir, project, tmuxDir, tmp]) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(tmuxDir, `tmux-${uid()}`), { mode: 0o700 });
  const socketPath = path.join(tmuxDir, `tmux-${uid()}`, 'default');

  const api = await startMessagesApi(opts.script ?? []);
  const env = { ...claudeEnv({ home, tmuxDir, tmp }, api.url), ...opts.env };
  writeJson(path.join(home, '.claude.json'), seededGlobalConfig(project));
  // 2.1.332 starts in auto mode (which asks nothing) unless the user's settings say otherwise.
  writeJson(path.join(claudeDir, 'settings.json'), { permissions: { defaultMode: 'default' }, ...opts.settings });

  const tmux = new TmuxClient({ path: socketPath }, 5000);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const sockets = fs.existsSync(path.join(tmuxDir, `tmux-${uid()}`))
      ? fs.readdirSync(path.join(tmuxDir, `tmux-${uid()}`)).map((n) => path.join(tmuxDir, `tmux-${uid()}`, n))
      : [];
    await Promise.all(sockets.map((s) => run('tmux', ['-S', s, 'kill-server'], process.env)));
    // A killed server hangs its panes up; the CLI and what it started may take a moment to go.
    const left = () => processesOf(tmuxDir).filter(isRunning);
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
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  stopAfterFile(stop);
  try {
    await opts.setup?.({ home, claudeDir, project });
  } catch (err) {
    await stop();
    throw err;
  }

  const columns = opts.columns ?? 200;
  const rows = opts.rows ?? 50;
  const command = `exec ${[claudeBinary(), ...(opts.args ?? [])].map(shellQuote).join(' ')}`;
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // The server itself starts with the CLI's environment too: what it runs later (split panes) inherits it.
  const serverEnv = { ...withoutCiMarks(process.env), ...env, TMUX: '' };
  const started = await run(
    'tmux',
    [
      '-S',
      socketPath,
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
      String(columns),
      '-y',
      String(rows),
      '-c',
      project,
      ...envArgs,
      command,
    ],
    serverEnv,
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
  const waitForScreen = async (want: RegExp | string, timeoutMs = 20_000, pane = paneId) => {
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
  const runHandle: ClaudeRun = {
    dir,
    home,
    claudeDir,
    project,
    tmuxDir,
    socketPath,
    tmux,
    paneId,
    pid: Number(pidText),
    api,
    env,
    screen,
    waitForScreen,
    // The input box: a `❯` line under a full-width rule, with the mode line below and no dialog open.
    ready: (timeoutMs = 30_000) => waitForScreen(/^─{20,}\n❯.*\n─{20,}/m, timeoutMs),
    submit: async (text, pane = paneId) => {
      await tmux.run(['send-keys', '-t', pane, '-l', '--', text]);
      await tmux.run(['send-keys', '-t', pane, 'Enter']);
    },
    keys: async (...keys) => void (await tmux.run(['send-keys', '-t', paneId, ...keys])),
    stop,
  };
  return runHandle;
}
