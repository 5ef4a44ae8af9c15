/**
 * Runs the real Codex CLI (the pinned dev dependency `@openai/codex`) in tmux for a test: a private
 * HOME and CODEX_HOME (never the real ~/.codex) whose `config.toml` names the Responses API stand-in
 * as a custom model provider, trusts the project (else a "Trust this folder?" screen), turns the
 * update check off, and asks before escalated commands (`approval_policy = "on-request"`). Started
 * through its npm launcher (`node …/bin/codex.js`), as a user's `codex` is. Its tmux server listens
 * in a private socket folder; `stop()` (also run after the file) ends every server and process whose
 * environment names that folder, the background app server the first Codex starts included.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { makeCliDirs, shellQuote, startCliPane, type CliPane } from '../cli-pane.js';
import { startResponsesApi, type ResponsesApi, type Turn } from './responses-api.js';

/** The version the tests and fixtures are made against (package.json pins it exactly). */
export const CODEX_VERSION = '0.169.0';
/** The provider's `env_key`: the stand-in takes any key. */
export const STAND_IN_KEY_VAR = 'TOWER_STANDIN_API_KEY';
/** The model the config names; the stand-in answers for any. */
export const STAND_IN_MODEL = 'gpt-5.1-codex';

const require = createRequire(import.meta.url);

/** The npm launcher, `bin/codex.js` (node runs it; it runs the platform package's binary as a child). */
export function codexLauncher(): string {
  return path.join(path.dirname(require.resolve('@openai/codex/package.json')), 'bin/codex.js');
}

export interface CodexOptions {
  columns?: number;
  rows?: number;
  script?: Turn[];
  /** Lines added to config.toml (before the tables). */
  config?: string;
  env?: Record<string, string>;
  args?: string[];
  /** A stand-in already running, shared with another CLI (each CLI stops only its own). */
  api?: ResponsesApi;
  /** Another run's HOME and CODEX_HOME, to share its app server; default a fresh one. */
  shareHomeOf?: CodexRun;
  setup?: (dirs: { home: string; codexHome: string; project: string }) => void | Promise<void>;
}

export interface CodexRun extends CliPane {
  /** CODEX_HOME: config.toml, sessions/, history.jsonl, the app server's socket. */
  codexHome: string;
  api: ResponsesApi;
  /** Waits for the input box with no dialog and no turn running. */
  ready(timeoutMs?: number): Promise<string>;
  /** Pastes `text` (bracketed), then Enter as a key of its own. */
  submit(text: string, paneId?: string): Promise<void>;
}

/** A TOML basic string. */
export function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** The seeded config.toml: the stand-in as provider, the project trusted, no update check, on-request approvals. */
export function seededConfig(apiUrl: string, projects: readonly string[], extra = ''): string {
  return [
    `model = ${tomlString(STAND_IN_MODEL)}`,
    'model_provider = "standin"',
    'approval_policy = "on-request"',
    'check_for_update_on_startup = false',
    extra,
    '',
    '[model_providers.standin]',
    'name = "Stand-in"',
    `base_url = ${tomlString(apiUrl)}`,
    'wire_api = "responses"',
    `env_key = ${tomlString(STAND_IN_KEY_VAR)}`,
    '',
    ...projects.flatMap((p) => [`[projects.${tomlString(p)}]`, 'trust_level = "trusted"', '']),
  ].join('\n');
}

/** Where the links in a CODEX_HOME to its app server's sockets point. */
function daemonSockets(codexHome: string): string[] {
  const out: string[] = [];
  for (const sub of ['app-server-control', 'app-server-daemon']) {
    const folder = path.join(codexHome, sub);
    for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
      try {
        const target = fs.readlinkSync(path.join(folder, name));
        if (target.includes('codex-daemon')) out.push(path.resolve(folder, target));
      } catch {
        // Not a link.
      }
    }
  }
  return out;
}

/** A second Codex pane on a run's tmux server and CODEX_HOME (so on its app server), in a folder of its own. */
export interface CodexPane {
  paneId: string;
  pid: number;
  project: string;
}

/**
 * Opens another Codex in a new window of `c`'s tmux server, with `c`'s environment (its HOME and
 * CODEX_HOME: one shared app server), working in `<c.dir>/<folder>` (trusted in the config), or in
 * `c.project` itself with `folder` null. `c.stop()` ends it with the rest.
 */
export async function openCodexPane(c: CodexRun, folder: string | null): Promise<CodexPane> {
  const project = folder === null ? c.project : path.join(c.dir, folder);
  if (folder !== null) {
    fs.mkdirSync(project, { recursive: true, mode: 0o700 });
    fs.appendFileSync(
      path.join(c.codexHome, 'config.toml'),
      `\n[projects.${tomlString(project)}]\ntrust_level = "trusted"\n`,
    );
  }
  const command = `exec ${[process.execPath, codexLauncher()].map(shellQuote).join(' ')}`;
  const envArgs = Object.entries(c.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // tmux 3.3a's server exits on new-window under `window-size manual` (seen): latest while it opens.
  await c.tmux.run(['set-option', '-g', 'window-size', 'latest']);
  const out = await c.tmux.run([
    'new-window',
    '-d',
    '-P',
    '-F',
    '#{pane_id} #{pane_pid}',
    '-c',
    project,
    ...envArgs,
    command,
  ]);
  await c.tmux.run(['set-option', '-g', 'window-size', 'manual']);
  const [paneId, pidText] = out.trim().split(' ');
  if (!paneId || !pidText) throw new Error(`tmux did not open the pane: ${out}`);
  return { paneId, pid: Number(pidText), project };
}

/** Starts Codex in a private tmux server and waits for it to draw its first screen. */
export async function startCodex(opts: CodexOptions = {}): Promise<CodexRun> {
  const dirs = makeCliDirs('codex');
  const home = opts.shareHomeOf?.home ?? dirs.home;
  const codexHome = opts.shareHomeOf?.codexHome ?? path.join(home, '.codex');
  const project = dirs.project;
  fs.mkdirSync(codexHome, { recursive: true, mode: 0o700 });

  const ownApi = !opts.api;
  const api = opts.api ?? (await startResponsesApi(opts.script ?? []));
  const env: Record<string, string> = {
    HOME: home,
    CODEX_HOME: codexHome,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    TMPDIR: dirs.tmp,
    TMUX_TMPDIR: dirs.tmuxDir,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    [STAND_IN_KEY_VAR]: 'standin-key-for-tests-only',
    ...opts.env,
  };
  if (opts.shareHomeOf) {
    const cfg = fs.readFileSync(path.join(codexHome, 'config.toml'), 'utf8');
    fs.writeFileSync(
      path.join(codexHome, 'config.toml'),
      `${cfg}\n[projects.${tomlString(project)}]\ntrust_level = "trusted"\n`,
    );
  } else fs.writeFileSync(path.join(codexHome, 'config.toml'), seededConfig(api.url, [project], opts.config));

  const cleanup = async (): Promise<void> => {
    if (ownApi) await api.close();
    // The app server's sockets live outside the home (`/tmp/codex-daemon-<uid>/<hash>`), linked from it.
    if (!opts.shareHomeOf)
      for (const s of daemonSockets(codexHome)) for (const f of [s, `${s}.lock`]) fs.rmSync(f, { force: true });
  };
  try {
    await opts.setup?.({ home, codexHome, project });
  } catch (err) {
    await cleanup();
    fs.rmSync(dirs.dir, { recursive: true, force: true });
    throw err;
  }

  const pane = await startCliPane(dirs, [process.execPath, codexLauncher(), ...(opts.args ?? [])], env, {
    columns: opts.columns ?? 200,
    rows: opts.rows ?? 50,
    waitMs: 20_000,
    cleanup,
  });
  const { tmux, paneId } = pane;
  return {
    ...pane,
    home,
    codexHome,
    api,
    ready: (timeoutMs = 60_000) => pane.waitForScreen(/← for agents/, timeoutMs),
    // One bracketed paste, then Enter: keys typed in a burst would make the Enter a newline.
    submit: async (text, to = paneId) => {
      await tmux.run(['set-buffer', '-b', 'submit', '--', text]);
      await tmux.run(['paste-buffer', '-p', '-d', '-b', 'submit', '-t', to]);
      await tmux.run(['send-keys', '-t', to, 'Enter']);
    },
  };
}
