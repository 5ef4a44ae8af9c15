/**
 * The config file: defaults, XDG paths and the loader. A bad config is a clear error naming the key.
 * Location: --config FILE, else $XDG_CONFIG_HOME/tower/config.json (default ~/.config/tower/config.json).
 * The schema (config-schema.ts) is loaded only when a file exists, so a start without one loads no validator.
 */
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import type { CommandsSchema, ConfigSchema, HostSchema } from './config-schema.js';
import { readText, parseJson } from '../files/read.js';
import { sanitizeLine } from '../text/sanitize.js';
import { BARE_COMMANDS, TINA_COMMANDS } from './defaults.js';
import { defaultNotifyConfig } from './notify.js';

/** The text typed into a lead's pane for each step of the checkpoint cycle. */
export type Commands = z.infer<typeof CommandsSchema>;
/** Another build box reached over OpenSSH. */
export type HostConfig = z.infer<typeof HostSchema>;
export type Config = z.infer<typeof ConfigSchema>;

export { BARE_COMMANDS, TINA_COMMANDS } from './defaults.js';

/** The defaults, as if the config file were `{}` (the same values as the schema's defaults). */
export function defaultConfig(): Config {
  return {
    hosts: [],
    local: true,
    hostTimeoutSec: 15,
    roots: [],
    commands: { tina: { ...TINA_COMMANDS }, 'claude-team': { ...BARE_COMMANDS } },
    checkpointTimeoutSec: 300,
    stragglerAfterSec: 30,
    killGraceSec: 2,
    rehydrateTimeoutSec: 120,
    staleHandoffMinutes: 60,
    heartbeatStaleSec: 300,
    contextThresholdPct: 70,
    pollIntervalMs: 2000,
    readonly: false,
    keys: {},
    notify: defaultNotifyConfig(),
  };
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
 * Where the config's JSON goes wrong, as its writer looks for it: `invalid JSON at line 2, column 1:
 * Expected double-quoted property name` (null when JSON.parse names no position). The config is
 * the operator's own file, written by hand: a mistake in it is not a half-written file.
 */
function jsonMistake(text: string): string | null {
  let said = '';
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    said = err instanceof Error ? err.message : String(err);
  }
  const at = / in JSON at position (\d+)/.exec(said);
  if (!at) return null;
  const pos = Number(at[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column}: ${sanitizeLine(said.slice(0, at.index)).slice(0, 120)}`;
}

/**
 * Loads the config. A missing default file gives the defaults; a missing file named by --config,
 * invalid JSON or a wrong key is a ConfigError whose message names the file and the key.
 */
export async function loadConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ config: Config; file: string | null }> {
  const target = file ? path.resolve(file) : defaultConfigPath(env);
  const text = readText(target);
  if (!text.ok) {
    if (!file && text.problem.message === 'file is missing') return { config: defaultConfig(), file: null };
    throw new ConfigError(`config ${target}: ${text.problem.message}`);
  }
  const json = parseJson(target, text.value);
  if (!json.ok) throw new ConfigError(`config ${target}: ${jsonMistake(text.value) ?? json.problem.message}`);
  const { checkConfig } = await import('./config-schema.js');
  const checked = checkConfig(json.value);
  if (!checked.ok) throw new ConfigError(`config ${target}: ${checked.errors.join('; ')}`);
  return { config: checked.config, file: target };
}
