/**
 * tower's command line: a spec of options and commands, the parse of argv against it, and the help
 * text made from the same spec. Small on purpose: it is loaded by every start of tower, and a
 * general-purpose parser cost `tower status` more time than reading a small box.
 */

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
  constructor(message: string) {
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
  return { spec, short: m[1] ?? null, long, key: camel(negated ? long.slice(3) : long), takesValue: spec.flags.includes('<'), negated };
}

const HELP: Option = toOption({ flags: '-h, --help', description: 'show this help' });
const VERSION: Option = toOption({ flags: '-V, --version', description: 'print the version number' });

/** Parses `argv` (without node and the script) against `program`; throws UsageError. */
export function parseArgv(program: ProgramSpec, argv: readonly string[]): Parsed {
  const globals = program.globalOptions.map(toOption);
  let command: CommandSpec | null = null;
  let options = [...globals, HELP, VERSION];
  const opts: Record<string, unknown> = {};
  for (const o of options) if (o.negated) opts[o.key] = true;
  const positional: string[] = [];
  let wantsHelp = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const typed = eq === -1 ? arg : arg.slice(0, eq);
      const shortValue = !arg.startsWith('--') && arg.length > 2 ? arg.slice(2) : null;
      const o = options.find((x) => (arg.startsWith('--') ? `--${x.long}` === typed : `-${x.short}` === arg.slice(0, 2)));
      if (!o) throw new UsageError(`unknown option '${typed}'`);
      if (o === HELP) {
        wantsHelp = true;
        continue;
      }
      if (o === VERSION && command === null) return { kind: 'version', text: `${program.version}\n` };
      if (!o.takesValue) {
        if (eq !== -1 || shortValue !== null) throw new UsageError(`option '${o.spec.flags}' takes no value`);
        opts[o.key] = !o.negated;
        continue;
      }
      let value: string;
      if (eq !== -1) value = arg.slice(eq + 1);
      else if (shortValue !== null) value = shortValue;
      else if (i + 1 < argv.length) value = argv[++i] ?? '';
      else throw new UsageError(`option '${o.spec.flags}' argument missing`);
      const parsed = o.spec.parse ? o.spec.parse(value) : value;
      opts[o.key] = o.spec.repeatable ? [...((opts[o.key] as unknown[] | undefined) ?? []), parsed] : parsed;
      continue;
    }
    if (command === null && positional.length === 0) {
      if (arg === 'help') return { kind: 'help', text: helpText(program, findCommand(program, argv[i + 1] ?? null)) };
      const named = findCommand(program, arg);
      if (!named) throw new UsageError(`unknown command '${arg}'`);
      command = named;
      const own = (named.options ?? []).map(toOption);
      for (const o of own) if (o.negated) opts[o.key] = true;
      options = [...globals, ...own, HELP];
      continue;
    }
    positional.push(arg);
  }

  if (wantsHelp) return { kind: 'help', text: helpText(program, command) };
  const expected = command?.args ?? [];
  if (command === null && positional.length > 0) throw new UsageError(`unknown command '${positional[0]}'`);
  const missing = expected[positional.length];
  if (missing) throw new UsageError(`missing required argument '${missing.name}'`);
  if (positional.length > expected.length) {
    throw new UsageError(`too many arguments for '${command?.name}': expected ${expected.length}, got ${positional.length}`);
  }
  return { kind: 'run', command: command?.name ?? null, args: positional, opts };
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
  const optionRows = (specs: readonly OptionSpec[]) => specs.map((s) => ({ left: s.flags.startsWith('--') ? `    ${s.flags}` : s.flags, right: s.description }));
  const out: string[] = [];
  if (command === null) {
    out.push(`Usage: ${program.name} [options] [command]`, '', program.description, '', 'Options:');
    out.push(...rows(optionRows([VERSION.spec, ...program.globalOptions, HELP.spec])));
    out.push('', 'Commands:');
    const shown = program.commands.filter((c) => !c.hidden);
    out.push(...rows([...shown.map((c) => ({ left: usageOf(c), right: c.description })), { left: 'help [command]', right: 'show the help of a command' }]));
  } else {
    out.push(`Usage: ${program.name} ${usageOf(command)}`, '', command.description);
    if (command.args?.length) out.push('', 'Arguments:', ...rows(command.args.map((a) => ({ left: a.name, right: a.description }))));
    out.push('', 'Options:', ...rows(optionRows([...(command.options ?? []), ...program.globalOptions, HELP.spec])));
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
