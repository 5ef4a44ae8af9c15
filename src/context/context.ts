/** What every command is given: resolved config, paths, the tmux client, output streams. */
import path from 'node:path';
import type { Config, HostConfig } from '../config/config.js';
import { claudeDirFrom, loadConfig } from '../config/config.js';
import { resolveHosts } from '../config/hosts.js';
import { TmuxClient } from '../tmux/client.js';

/** The command-line options shared by every command. */
export interface GlobalOptions {
  root?: string[];
  claudeDir?: string;
  socketName?: string;
  socketPath?: string;
  config?: string;
  /** false when --no-color was given. */
  color?: boolean;
  readonly?: boolean;
  dryRun?: boolean;
  /** --host NAME|DEST values (repeatable). */
  host?: string[];
  /** false when --no-local was given. */
  local?: boolean;
  /** --demo: point at the running demo (its roots, Claude dir, server and audit log). */
  demo?: boolean;
}

export interface AppContext {
  config: Config;
  configFile: string | null;
  claudeDir: string;
  /** Roots from --root and the config file, absolute. Discovery adds more. */
  roots: string[];
  /** Whether to discover roots (tmux pane cwds, tina sessions); always true today. */
  discover: boolean;
  tmux: TmuxClient;
  /** Other build boxes to show: the config's hosts plus --host. */
  hosts: HostConfig[];
  /** Whether this box's own runs are shown (--no-local or `local: false` leave them out). */
  local: boolean;
  color: boolean;
  readonly: boolean;
  dryRun: boolean;
  env: NodeJS.ProcessEnv;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

/**
 * Builds the context from options; throws ConfigError on a bad config file, and DemoTargetError
 * when `--demo` finds no single running demo.
 */
export async function createContext(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Promise<AppContext> {
  if (opts.demo) {
    // Loaded only here: a command line without --demo never needs it.
    const { DemoTargetError, findRunningDemo } = await import('./demo-record.js');
    if (opts.socketPath !== undefined)
      throw new DemoTargetError("--demo finds the demo's tmux server itself: leave -S out (-L NAME picks one demo)");
    const demo = await findRunningDemo(env, opts.socketName);
    // The demo's own audit log and hook events: never the operator's. Only the sandbox is shown,
    // as in the demo's own control room: no configured roots or hosts.
    const ctx = await createContext(
      { ...opts, demo: false, claudeDir: demo.claudeDir, socketName: demo.socketName },
      { ...env, XDG_STATE_HOME: demo.stateHome },
    );
    const roots = [...demo.roots, ...(opts.root ?? []).map((r) => path.resolve(r))];
    return { ...ctx, roots: [...new Set(roots)], hosts: [], local: true };
  }
  const { config, file } = await loadConfig(opts.config, env);
  const roots = [...(opts.root ?? []), ...config.roots].map((r) => path.resolve(r));
  const socketName = opts.socketName ?? config.socketName;
  const socketPath = opts.socketPath ?? config.socketPath;
  const color = opts.color !== false && !('NO_COLOR' in env && env.NO_COLOR !== '');
  return {
    config,
    configFile: file,
    claudeDir: claudeDirFrom(opts.claudeDir, config, env),
    roots: [...new Set(roots)],
    discover: true,
    tmux: new TmuxClient(socketPath ? { path: socketPath } : socketName ? { name: socketName } : {}),
    hosts: resolveHosts(config.hosts, opts.host ?? [], config.hostRules),
    local: opts.local !== false && config.local,
    color,
    readonly: Boolean(opts.readonly) || config.readonly,
    dryRun: Boolean(opts.dryRun),
    env,
    out: process.stdout,
    err: process.stderr,
  };
}
