/**
 * The zod schema of the config file. Loaded only when a config file exists: a start without one takes
 * the plain defaults of config.ts (a test holds them equal to what this schema gives for `{}`).
 */
import { z } from 'zod';
import { BARE_COMMANDS, TINA_COMMANDS } from './defaults.js';
import { duration } from './duration.js';
import { NotifyConfigSchema } from './notify-schema.js';
import { resolveBindings } from '../keys/keymap-schema.js';
import { nearWord } from '../text/near-word.js';

/** The text typed into a lead's pane for each step of the checkpoint cycle. */
export const CommandsSchema = z
  .object({
    checkpoint: z.string().min(1).default('/checkpoint'),
    clear: z.string().min(1).default('/clear'),
    rehydrate: z.string().min(1).default('/rehydrate'),
  })
  .strict();

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
    /**
     * Whose rules answer the box's held requests: `yours` (this tower's rules file, sent to the box's
     * `tower serve`) or `box` (the box's own rules file). Default: `hostRules`, else `box`.
     */
    rules: z.enum(['yours', 'box']).optional(),
  })
  .strict();

export const ConfigSchema = z
  .object({
    /** Other build boxes shown beside this one. */
    hosts: z.array(HostSchema).default([]),
    /** Whether this box's own runs are shown (false: only the hosts). */
    local: z.boolean().default(true),
    /** Whose rules answer on a host that names none (`yours` or `box`; unset: `box`). */
    hostRules: z.enum(['yours', 'box']).optional(),
    /** Seconds a host may take to connect and send its first snapshot before it counts as unreachable. */
    hostTimeoutSec: duration('s', 1, 3600, 15),
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
    /** The rules that answer held permission requests (default: rules.json beside this file). */
    rulesFile: z.string().min(1).optional(),
  })
  .strict();

/** The schema's own fields, reached through defaults, optionals and nullables. */
type Def = {
  type: string;
  innerType?: { _zod: { def: Def } };
  shape?: Record<string, { _zod: { def: Def } }>;
  element?: { _zod: { def: Def } };
  valueType?: { _zod: { def: Def } };
};

/** The keys the config may have at `where` (an object of the schema), or null when it is no object. */
function keysAt(where: readonly PropertyKey[]): string[] | null {
  let def = (ConfigSchema as unknown as { _zod: { def: Def } })._zod.def;
  const unwrap = () => {
    while (def.innerType) def = def.innerType._zod.def;
  };
  for (const step of where) {
    unwrap();
    const next =
      def.type === 'object'
        ? def.shape?.[String(step)]
        : def.type === 'array'
          ? def.element
          : def.type === 'record'
            ? def.valueType
            : undefined;
    if (!next) return null;
    def = next._zod.def;
  }
  unwrap();
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : null;
}

/** What one value may be, in words: the literals and types a union or enum takes. */
function allowed(issue: z.core.$ZodIssue): string | null {
  const words: string[] = [];
  const visit = (i: z.core.$ZodIssue) => {
    if (i.code === 'invalid_value') words.push(...i.values.map((v) => JSON.stringify(v)));
    else if (i.code === 'invalid_type') words.push(`a ${i.expected}`);
    else if (i.code === 'invalid_union') for (const list of i.errors) list.forEach(visit);
  };
  visit(issue);
  return words.length > 0 ? [...new Set(words)].join(', ') : null;
}

/** One issue as the operator reads it: where, what is wrong, and what would be right. */
function issueText(i: z.core.$ZodIssue): string {
  const where = i.path.length ? i.path.join('.') : '(top level)';
  if (i.code === 'unrecognized_keys') {
    const known = keysAt(i.path);
    const said = i.keys.map((k) => {
      const near = known ? nearWord(k, known) : null;
      return { text: `"${k}"${near ? ` (did you mean "${near}"?)` : ''}`, near };
    });
    // The whole list only when no key was near one of them: a misspelt key names the one it was meant to be.
    const list = known && said.every((s) => !s.near) ? `; the keys are ${known.join(', ')}` : '';
    return `${where}: unknown key${i.keys.length === 1 ? '' : 's'} ${said.map((s) => s.text).join(', ')}${list}`;
  }
  if (i.code === 'invalid_type' && i.input === undefined) return `${where}: is missing`;
  if (i.code === 'invalid_union' || i.code === 'invalid_value') {
    const one = allowed(i);
    if (one) return `${where}: must be one of ${one}`;
  }
  return `${where}: ${i.message}`;
}

/**
 * The required keys a misspelt key stands for: its issue says it ("did you mean"), their "missing" would say
 * it again.
 */
function meantKeys(issues: readonly z.core.$ZodIssue[]): Set<string> {
  const meant = new Set<string>();
  for (const i of issues) {
    if (i.code !== 'unrecognized_keys') continue;
    const known = keysAt(i.path) ?? [];
    for (const k of i.keys) {
      const near = nearWord(k, known);
      if (near) meant.add([...i.path, near].join('.'));
    }
  }
  return meant;
}

/**
 * The config a file's JSON value means, or what is wrong with it, naming every wrong key. Plain data
 * either way (config.ts makes the error): this module may be loaded from a file of its own.
 */
export function checkConfig(
  value: unknown,
): { ok: true; config: z.infer<typeof ConfigSchema> } | { ok: false; errors: string[] } {
  const parsed = ConfigSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const meant = meantKeys(issues);
    const missing = (i: z.core.$ZodIssue) => i.code === 'invalid_type' && i.input === undefined;
    return { ok: false, errors: issues.filter((i) => !(missing(i) && meant.has(i.path.join('.')))).map(issueText) };
  }
  // Checked here, not only by the screen: every command refuses a config it would misread.
  const keys = resolveBindings(parsed.data.keys);
  if (!keys.ok) return { ok: false, errors: keys.errors };
  return { ok: true, config: parsed.data };
}
