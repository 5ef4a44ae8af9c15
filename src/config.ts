/**
 * The config file: zod schema, defaults and XDG paths. A bad config is a clear error naming the key.
 * Location: --config FILE, else $XDG_CONFIG_HOME/tower/config.json (default ~/.config/tower/config.json).
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { NotifyConfigSchema } from './notify/config.js';
import { readText, parseJson } from './sources/read.js';

/** The text typed into a lead's pane for each step of the checkpoint cycle. */
export const CommandsSchema = z
  .object({
    checkpoint: z.string().min(1).default('/checkpoint'),
    clear: z.string().min(1).default('/clear'),
    rehydrate: z.string().min(1).default('/rehydrate'),
  })
  .strict();
export type Commands = z.infer<typeof CommandsSchema>;

export const ConfigSchema = z
  .object({
    /** Project roots watched in addition to discovered ones. */
    roots: z.array(z.string().min(1)).default([]),
    /** The Claude Code config dir (teams, tasks, tina-sessions). */
    claudeDir: z.string().min(1).optional(),
    /** tmux server: socket name (-L) or path (-S). */
    socketName: z.string().min(1).optional(),
    socketPath: z.string().min(1).optional(),
    /** Commands typed into panes, per system; systems not named use `tina`'s defaults. */
    commands: z
      .object({
        tina: CommandsSchema.default({ checkpoint: '/checkpoint', clear: '/clear', rehydrate: '/rehydrate' }),
        'claude-team': CommandsSchema.default({ checkpoint: '/checkpoint', clear: '/clear', rehydrate: '/rehydrate' }),
      })
      .strict()
      .default({
        tina: { checkpoint: '/checkpoint', clear: '/clear', rehydrate: '/rehydrate' },
        'claude-team': { checkpoint: '/checkpoint', clear: '/clear', rehydrate: '/rehydrate' },
      }),
    /** Seconds the checkpoint cycle waits for the handoff before it escalates (tina: 5 min). */
    checkpointTimeoutSec: z.number().positive().default(300),
    /** Seconds after which teammates still alive during a checkpoint are offered for force-terminate. */
    stragglerAfterSec: z.number().positive().default(30),
    /** Seconds between SIGTERM and SIGKILL when force-terminating. */
    killGraceSec: z.number().positive().default(2),
    /** Seconds the rehydrate step waits for REHYDRATE COMPLETE. */
    rehydrateTimeoutSec: z.number().positive().default(120),
    /** Minutes after which a handoff is stale (tina: 60). */
    staleHandoffMinutes: z.number().positive().default(60),
    /** Seconds after which a phase heartbeat looks stuck (tina: 300). */
    heartbeatStaleSec: z.number().positive().default(300),
    /** Context threshold used when a run names none (tina: 70). */
    contextThresholdPct: z.number().min(1).max(100).default(70),
    /** Milliseconds between tmux polls (one `list-panes -a` each): how soon a dead pane shows. */
    pollIntervalMs: z.number().int().min(100).default(2000),
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
  return { config: parsed.data, file: target };
}
