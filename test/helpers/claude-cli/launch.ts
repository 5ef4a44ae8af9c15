/**
 * Runs the real Claude Code CLI in tmux for a test: a private HOME (never the real ~/.claude) with
 * the config seeded so that no onboarding, trust, API-key or auto-mode screen blocks; the Messages
 * API stand-in as its endpoint; telemetry, updates and nonessential traffic off (there is no network
 * but loopback); agent teams on. Its tmux server listens in a private socket folder (TMUX_TMPDIR),
 * so the `claude-swarm-<pid>` servers the CLI starts for teammates land there too, and `stop()`
 * (also run after the file, when a test failed half-way) ends every server and process in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeCliDirs, startCliPane, writeJson, type CliPane } from '../cli-pane.js';
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

export interface ClaudeRun extends CliPane {
  /** `<home>/.claude`: what `--claude-dir` names. */
  claudeDir: string;
  /** The project the CLI runs in (trusted in the seeded config). */
  project: string;
  api: MessagesApi;
  /** Waits for the input box with no dialog over it. */
  ready(timeoutMs?: number): Promise<string>;
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

/** Whether a process runs (kept here for the tests that import it from the Claude launcher). */

/** Starts the CLI in a private tmux server and waits for it to draw its first screen. */
export async function startClaude(opts: ClaudeOptions = {}): Promise<ClaudeRun> {
  const dirs = makeCliDirs('claude');
  const { home, project } = dirs;
  const claudeDir = path.join(home, '.claude');
  fs.mkdirSync(claudeDir, { recursive: true, mode: 0o700 });

  const api = await startMessagesApi(opts.script ?? []);
  const env = { ...claudeEnv(dirs, api.url), ...opts.env };
  writeJson(path.join(home, '.claude.json'), seededGlobalConfig(project));
  // 2.1.332 starts in auto mode (which asks nothing) unless the user's settings say otherwise.
  writeJson(path.join(claudeDir, 'settings.json'), { permissions: { defaultMode: 'default' }, ...opts.settings });
  try {
    await opts.setup?.({ home, claudeDir, project });
  } catch (err) {
    await api.close();
    fs.rmSync(dirs.dir, { recursive: true, force: true });
    throw err;
  }

  const pane = await startCliPane(dirs, [claudeBinary(), ...(opts.args ?? [])], env, {
    columns: opts.columns ?? 200,
    rows: opts.rows ?? 50,
    session: opts.session,
    waitMs: 20_000,
    cleanup: () => api.close(),
  });
  return {
    ...pane,
    claudeDir,
    api,
    // The input box: a `❯` line under a full-width rule, with the mode line below and no dialog open.
    ready: (timeoutMs = 30_000) => pane.waitForScreen(/^─{20,}\n❯.*\n─{20,}/m, timeoutMs),
  };
}
