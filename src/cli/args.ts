/**
 * tower's command line: a spec of options and commands (data), argv parsed against it by
 * node:util's parseArgs, and the help text made from the same spec.
 */
import { parseArgs } from 'node:util';

/** An option, written as it is typed: `-L, --socket-name <name>`, `--json`, `--no-color`. */
export interface OptionSpec {
  flags: string;
  description: string;
  /** Collect every value given into a list. */
  repeatable?: boolean;
  /** Turns the typed value into the option's value; throws UsageError to refuse it. */
  parse?: (value: string) => unknown;
}

export interface CommandSpec {
  name: string;
  description: string;
  /** Required positional arguments, by name, with what they are. */
  args?: readonly { name: string; description: string }[];
  options?: readonly OptionSpec[];
  /** Left out of the help (the far side of a host). */
  hidden?: boolean;
  /** The global options it takes, by long name (default: every one). */
  globals?: readonly string[];
}

export interface ProgramSpec {
  name: string;
  description: string;
  version: string;
  /** Options every command takes, before or after the command's name. */
  globalOptions: readonly OptionSpec[];
  commands: readonly CommandSpec[];
}

/** What argv asked for. `command` is null for the program itself (no command named). */
export type Parsed =
  | { kind: 'run'; command: string | null; args: string[]; opts: Record<string, unknown> }
  | { kind: 'help'; text: string }
  | { kind: 'version'; text: string };

/** A command line that can't be run; `message` says why, in words. */
export class UsageError extends Error {
  /**
   * @param typo the word typed and the words it may have meant, so the message can say which is
   *   closest (worked out only on this path: see cli.ts).
   */
  constructor(
    message: string,
    readonly typo?: { word: string; among: readonly string[] },
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

interface Option {
  spec: OptionSpec;
  short: string | null;
  long: string;
  /** The key in the parsed options: `--socket-name` → socketName, `--no-color` → color. */
  key: string;
  takesValue: boolean;
  negated: boolean;
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function toOption(spec: OptionSpec): Option {
  const m = /^(?:-([A-Za-z]), )?--([a-z][a-z0-9-]*)(?: <[^>]+>)?$/.exec(spec.flags);
  if (!m) throw new Error(`bad option flags: ${spec.flags}`);
  const long = m[2] ?? '';
  const negated = long.startsWith('no-');
  return {
    spec,
    short: m[1] ?? null,
    long,
    key: camel(negated ? long.slice(3) : long),
    takesValue: spec.flags.includes('<'),
    negated,
  };
}

const HELP: Option = toOption({ flags: '-h, --help', description: 'show this help' });
const VERSION: Option = toOption({ flags: '-V, --version', description: 'print the version number' });

type OptionConfig = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };

/** The options as node:util's parseArgs takes them, by long name. */
function configOf(options: readonly Option[]): Record<string, OptionConfig> {
  const out: Record<string, OptionConfig> = {};
  for (const o of options) {
    out[o.long] = {
      type: o.takesValue ? 'string' : 'boolean',
      ...(o.short ? { short: o.short } : {}),
      ...(o.spec.repeatable ? { multiple: true } : {}),
    };
  }
  return out;
}

/** parseArgs' error as tower says it, naming the option as the help shows it. */
function usageError(
  err: unknown,
  options: readonly Option[],
  command: CommandSpec | null,
  globals: readonly Option[],
): UsageError {
  const e = err as { code?: string; message?: string };
  // parseArgs names a value-taking option as `'-L, --socket-name <value>'`: the first flag, without its comma.
  const named = /'(-[^' ,]+)/.exec(e.message ?? '')?.[1] ?? '';
  const o = options.find((x) => `--${x.long}` === named || `-${x.short}` === named);
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const other = globals.find((x) => `--${x.long}` === named || `-${x.short}` === named);
    if (other && command)
      return new UsageError(
        `tower ${command.name} does not take '${named}' (tower ${command.name} --help lists what it takes)`,
      );
    // One letter is one edit from every other letter: what it is near is the one long option it starts.
    if (/^-[^-]$/.test(named)) {
      const starts = options.filter((x) => x.long.startsWith(named.slice(1)));
      const only = starts.length === 1 ? starts[0] : undefined;
      return new UsageError(`unknown option '${named}'${only ? `; did you mean '--${only.long}'?` : ''}`);
    }
    return new UsageError(`unknown option '${named}'`, {
      word: named,
      among: options.flatMap((x) => [`--${x.long}`, ...(x.short ? [`-${x.short}`] : [])]),
    });
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && o) {
    if (!o.takesValue) return new UsageError(`option '${o.spec.flags}' takes no value`);
    if (/ambiguous/.test(e.message ?? ''))
      return new UsageError(
        `option '${o.spec.flags}' needs its value: give one that starts with a dash as --${o.long}=VALUE`,
      );
    return new UsageError(`option '${o.spec.flags}' argument missing`);
  }
  return new UsageError(e.message ?? String(err));
}

/**
 * Parses `argv` (without node and the script) against `program` with node:util's parseArgs;
 * throws UsageError. The command is the first positional word; a first, loose pass finds it, then
 * argv is parsed strictly against the options that command takes.
 */
export function parseArgv(program: ProgramSpec, argv: readonly string[]): Parsed {
  const globals = program.globalOptions.map(toOption);
  const everyOption = [...globals, HELP, VERSION, ...program.commands.flatMap((c) => (c.options ?? []).map(toOption))];
  const loose = parseArgs({
    args: [...argv],
    options: configOf(everyOption),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = loose.tokens.find((t) => t.kind === 'positional' || t.kind === 'option-terminator');
  const name = first?.kind === 'positional' ? first.value : null;
  if (name === 'help') {
    const at = loose.tokens.indexOf(first!);
    const next = loose.tokens.slice(at + 1).find((t) => t.kind === 'positional');
    return {
      kind: 'help',
      text: helpText(program, findCommand(program, next?.kind === 'positional' ? next.value : null)),
    };
  }
  const command = name === null ? null : findCommand(program, name);
  if (name !== null && !command) throw unknownCommand(program, name);
  const options = command
    ? [...globalsOf(command, globals), ...(command.options ?? []).map(toOption), HELP]
    : [...globals, HELP, VERSION];

  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: configOf(options),
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (err) {
    throw usageError(err, options, command, globals);
  }
  const values = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
  if (values.help) return { kind: 'help', text: helpText(program, command) };
  if (values.version) return { kind: 'version', text: `${program.version}\n` };

  const opts: Record<string, unknown> = {};
  for (const o of options) {
    if (o === HELP || o === VERSION) continue;
    const v = values[o.long];
    if (o.negated) opts[o.key] = v !== true;
    else if (v === undefined) continue;
    else if (Array.isArray(v)) opts[o.key] = v.map((x) => (o.spec.parse ? o.spec.parse(String(x)) : x));
    else opts[o.key] = o.spec.parse ? o.spec.parse(String(v)) : v;
  }
  // The command's own name is the first positional word; a word after `--` is always an argument.
  const positional = [...parsed.positionals];
  if (command) positional.splice(positional.indexOf(command.name), 1);
  const expected = command?.args ?? [];
  if (command === null && positional.length > 0) throw unknownCommand(program, positional[0] ?? '');
  const missing = expected[positional.length];
  if (missing) throw new UsageError(`missing required argument '${missing.name}'`);
  if (positional.length > expected.length) {
    throw new UsageError(
      `too many arguments for '${command?.name}': expected ${expected.length}, got ${positional.length}`,
    );
  }
  return { kind: 'run', command: command?.name ?? null, args: positional, opts };
}

function unknownCommand(program: ProgramSpec, name: string): UsageError {
  const among = program.commands.filter((c) => !c.hidden).map((c) => c.name);
  return new UsageError(`unknown command '${name}'`, { word: name, among });
}

/** The global options a command takes. */
function globalsOf(command: CommandSpec, globals: readonly Option[]): Option[] {
  const taken = command.globals;
  return taken ? globals.filter((o) => taken.includes(o.long)) : [...globals];
}

function findCommand(program: ProgramSpec, name: string | null): CommandSpec | null {
  return program.commands.find((c) => c.name === name) ?? null;
}

/** The help of the program, or of one command: usage, what it does, its arguments and options. */
export function helpText(program: ProgramSpec, command: CommandSpec | null, width = 80): string {
  const rows = (list: readonly { left: string; right: string }[]): string[] => {
    const pad = Math.min(34, Math.max(...list.map((r) => r.left.length)) + 2);
    return list.map((r) => wrap(`  ${r.left.length + 2 > pad ? `${r.left}  ` : r.left.padEnd(pad)}`, r.right, width));
  };
  const optionRows = (specs: readonly OptionSpec[]) =>
    specs.map((s) => ({ left: s.flags.startsWith('--') ? `    ${s.flags}` : s.flags, right: s.description }));
  const out: string[] = [];
  if (command === null) {
    out.push(`Usage: ${program.name} [options] [command]`, '', program.description, '', 'Options:');
    out.push(...rows(optionRows([VERSION.spec, ...program.globalOptions, HELP.spec])));
    out.push('', 'Commands:');
    const shown = program.commands.filter((c) => !c.hidden);
    out.push(
      ...rows([
        ...shown.map((c) => ({ left: usageOf(c), right: c.description })),
        { left: 'help [command]', right: 'show the help of a command' },
      ]),
    );
  } else {
    out.push(`Usage: ${program.name} ${usageOf(command)}`, '', command.description);
    if (command.args?.length)
      out.push('', 'Arguments:', ...rows(command.args.map((a) => ({ left: a.name, right: a.description }))));
    const globals = globalsOf(command, program.globalOptions.map(toOption)).map((o) => o.spec);
    out.push('', 'Options:', ...rows(optionRows([...(command.options ?? []), ...globals, HELP.spec])));
  }
  return `${out.join('\n')}\n`;
}

function usageOf(c: CommandSpec): string {
  return [c.name, '[options]', ...(c.args ?? []).map((a) => `<${a.name}>`)].join(' ');
}

/** `left` then `text`, wrapped at `width` with continuation lines under the text's first column. */
function wrap(left: string, text: string, width: number): string {
  const room = Math.max(20, width - left.length);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.map((l, i) => (i === 0 ? left : ' '.repeat(left.length)) + l).join('\n');
}
