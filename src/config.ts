/**
 * The config file: zod schema, defaults and XDG paths. A bad config is a clear error naming the key.
 * Location: --config FILE, else $XDG_CONFIG_HOME/tower/config.json (default ~/.config/tower/config.json).
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { readText, parseJson } from './files/read.js';
import { NotifyConfigSchema } from './notify/config.js';
import { resolveBindings } from './ui/keymap.js';

/** The text typed into a lead's pane for each step of the checkpoint cycle. */
export const CommandsSchema = z
  .object({
    checkpoint: z.string().min(1).default('/checkpoint'),
    clear: z.string().min(1).default('/clear'),
    rehydrate: z.string().min(1).default('/rehydrate'),
  })
  .strict();
export type Commands = z.infer<typeof CommandsSchema>;

/** What tina's supervisor types: its plugin's skills. */
export const TINA_COMMANDS: Commands = { checkpoint: '/tina:checkpoint', clear: '/clear', rehydrate: '/tina:rehydrate' };
/** The bare forms (the seeds' words, and a plain Claude Code team's own commands). */
export const BARE_COMMANDS: Commands = { checkpoint: '/checkpoint', clear: '/clear', rehydrate: '/rehydrate' };

/**
 * A duration in the config: a finite number between sane bounds. The upper bounds keep every
 * timer below what setTimeout holds (2^31-1 ms, else it fires after 1 ms: a busy loop).
 */
function duration(unit: 'ms' | 's' | 'min', min: number, max: number, fallback: number, opts: { int?: boolean } = {}) {
  const words = { ms: 'ms', s: 's', min: 'minutes' }[unit];
  let n = z.number({ error: `must be a number of ${words}` });
  if (opts.int) n = n.int({ error: `must be a whole number of ${words}` });
  return n
    .min(min, { error: `at least ${min} ${words}` })
    .max(max, { error: `at most ${max} ${words}${unit === 'ms' ? ` (${max / 1000} s)` : ''}` })
    .default(fallback);
}

const DAY_SEC = 86_400;

/** Another build box reached over OpenSSH. */
export const HostSchema = z
  .object({
    /** How the box is named in run ids (`<name>/<system>:<run>`) and on the screen. */
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a host name is letters, digits, ".", "_" or "-"'),
    /** What ssh connects to: `op@build-1`, an alias of ~/.ssh/config. */
    destination: z.string().min(1),
    /** Extra ssh arguments, such as ["-F", "/path/ssh_config"] or ["-p", "2222"]. */
    sshArgs: z.array(z.string()).default([]),
    /** The shell command line that starts tower on that box, its env, roots and flags included. */
    tower: z.string().min(1).default('tower'),
  })
  .strict();
export type HostConfig = z.infer<typeof HostSchema>;

export const ConfigSchema = z
  .object({
    /** Other build boxes shown beside this one. */
    hosts: z.array(HostSchema).default([]),
    /** Whether this box's own runs are shown (false: only the hosts). */
    local: z.boolean().default(true),
    /** Seconds a host may take to connect and send its first snapshot before it counts as unreachable. */
    hostTimeoutSec: z.number().positive().default(15),
    /** Project roots watched in addition to discovered ones. */
    roots: z.array(z.string().min(1)).default([]),
    /** The Claude Code config dir (teams, tasks, tina-sessions). */
    claudeDir: z.string().min(1).optional(),
    /** tmux server: socket name (-L) or path (-S). */
    socketName: z.string().min(1).optional(),
    socketPath: z.string().min(1).optional(),
    /**
     * Commands typed into a lead's pane, per system with a checkpoint cycle. tina is a Claude Code
     * plugin, whose skills are always namespaced: `/tina:checkpoint`, `/tina:rehydrate` (the bare
     * forms of older setups can be set here).
     */
    commands: z
      .object({
        tina: CommandsSchema.default(TINA_COMMANDS),
        'claude-team': CommandsSchema.default(BARE_COMMANDS),
      })
      .strict()
      .default({ tina: TINA_COMMANDS, 'claude-team': BARE_COMMANDS }),
    /** Seconds the checkpoint cycle waits for the handoff before it escalates (tina: 5 min). */
    checkpointTimeoutSec: duration('s', 0.1, DAY_SEC, 300),
    /** Seconds after which teammates still alive during a checkpoint are offered for force-terminate. */
    stragglerAfterSec: duration('s', 0.1, 3600, 30),
    /** Seconds between SIGTERM and SIGKILL when force-terminating. */
    killGraceSec: duration('s', 0.1, 300, 2),
    /** Seconds the rehydrate step waits for REHYDRATE COMPLETE. */
    rehydrateTimeoutSec: duration('s', 0.1, 3600, 120),
    /** Minutes after which a handoff is stale (tina: 60). */
    staleHandoffMinutes: duration('min', 1, 7 * 24 * 60, 60),
    /** Seconds after which a phase heartbeat looks stuck (tina: 300). */
    heartbeatStaleSec: duration('s', 1, 7 * DAY_SEC, 300),
    /** Context threshold used when a run names none (tina: 70). */
    contextThresholdPct: z.number().min(1).max(100).default(70),
    /** Milliseconds between tmux polls (one `list-panes -a` each): how soon a dead pane shows. */
    pollIntervalMs: duration('ms', 100, 60_000, 2000, { int: true }),
    /** Refuse every action. */
    readonly: z.boolean().default(false),
    /** Key overrides: command name → list of keys (see the README's key table). */
    keys: z.record(z.string(), z.array(z.string().min(1))).default({}),
    /** Notifications when something newly needs a human (bell, desktop, title, command). */
    notify: NotifyConfigSchema.default(NotifyConfigSchema.parse({})),
  })
  .strict();
export type Config = z.infer<typeof ConfigSchema>;

/** The defaults, as if the config file were `{}`. */
export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}

/** $XDG_CONFIG_HOME/tower/config.json. */
export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'tower', 'config.json');
}

/** $XDG_STATE_HOME/tower (audit log lives here). */
export function stateHome(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(base, 'tower');
}

/** The Claude config dir: flag, then config, then $CLAUDE_CONFIG_DIR, then ~/.claude. */
export function claudeDirFrom(flag: string | undefined, config: Config, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag || config.claudeDir || env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude'));
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Loads the config. A missing default file gives the defaults; a missing file named by --config,
 * invalid JSON or a wrong key is a ConfigError whose message names the file and the key.
 */
export function loadConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): { config: Config; file: string | null } {
  const target = file ? path.resolve(file) : defaultConfigPath(env);
  const text = readText(target);
  if (!text.ok) {
    if (!file && text.problem.message === 'file is missing') return { config: defaultConfig(), file: null };
    throw new ConfigError(`config ${target}: ${text.problem.message}`);
  }
  const json = parseJson(target, text.value);
  if (!json.ok) throw new ConfigError(`config ${target}: ${json.problem.message}`);
  const parsed = ConfigSchema.safeParse(json.value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => {
      const where = i.path.length ? i.path.join('.') : '(top level)';
      const keys = 'keys' in i && Array.isArray(i.keys) ? ` ${i.keys.join(', ')}` : '';
      return `${where}:${keys} ${i.message}`;
    });
    throw new ConfigError(`config ${target}: ${issues.join('; ')}`);
  }
  // Checked here, not only by the screen: every command refuses a config it would misread.
  const keys = resolveBindings(parsed.data.keys);
  if (!keys.ok) throw new ConfigError(`config ${target}: ${keys.errors.join('; ')}`);
  return { config: parsed.data, file: target };
}
