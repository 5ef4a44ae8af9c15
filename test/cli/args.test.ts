import { describe, expect, it } from 'vitest';
import { UsageError, helpText, parseArgv } from '../../src/cli/args.js';
import type { ProgramSpec } from '../../src/cli/args.js';
import { main } from '../../src/cli/cli.js';
import { withSuggestion } from '../../src/cli/did-you-mean.js';
import { GLOBAL_OPTIONS } from '../../src/cli/options.js';
import { PROGRAM as TOWER } from '../../src/cli/spec.js';

const PROGRAM: ProgramSpec = {
  name: 'tower',
  description: 'test program',
  version: '9.9.9',
  globalOptions: GLOBAL_OPTIONS,
  commands: [
    { name: 'status', description: 'print', options: [{ flags: '--json', description: 'as JSON' }] },
    {
      name: 'terminate',
      description: 'kill',
      args: [{ name: 'run', description: 'the run' }],
      options: [
        { flags: '--member <name>', description: 'who', repeatable: true },
        { flags: '--timeout <seconds>', description: 'how long', parse: (v) => Number(v) },
      ],
    },
    { name: 'demo', description: 'demo', options: [{ flags: '--no-ui', description: 'no screen' }] },
    { name: 'serve', description: 'far side', hidden: true },
  ],
};

const run = (argv: string[]) => {
  const p = parseArgv(PROGRAM, argv);
  if (p.kind !== 'run') throw new Error(`expected a run, got ${p.kind}`);
  return p;
};

const refusal = (argv: string[]): string => {
  try {
    parseArgv(PROGRAM, argv);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('parseArgv', () => {
  it('takes global options before and after the command, in every typed form', () => {
    const p = run(['--root', '/a', 'status', '--root=/b', '-L', 'sock', '--json', '-S/tmp/s', '--claude-dir', '/c']);
    expect(p.command).toBe('status');
    expect(p.args).toEqual([]);
    expect(p.opts).toMatchObject({
      root: ['/a', '/b'],
      socketName: 'sock',
      socketPath: '/tmp/s',
      json: true,
      claudeDir: '/c',
      color: true,
      local: true,
    });
  });

  it('negated options default to true and turn false when given', () => {
    expect(run(['status']).opts).toMatchObject({ color: true, local: true });
    expect(run(['status', '--no-color', '--no-local']).opts).toMatchObject({ color: false, local: false });
    expect(run(['demo']).opts.ui).toBe(true);
    expect(run(['demo', '--no-ui']).opts.ui).toBe(false);
  });

  it('collects repeatable options, parses values, keeps positional arguments and a value that starts with a dash', () => {
    const p = run(['terminate', 'tina:x', '--member', 'a', '--member=b', '--timeout', '30', '--config=-odd']);
    expect(p.args).toEqual(['tina:x']);
    expect(p.opts).toMatchObject({ member: ['a', 'b'], timeout: 30, config: '-odd' });
    expect(run(['terminate', '--', '--run-with-dashes']).args).toEqual(['--run-with-dashes']);
  });

  it('runs the program itself when no command is named', () => {
    expect(run(['-L', 'x'])).toEqual({
      kind: 'run',
      command: null,
      args: [],
      opts: expect.objectContaining({ socketName: 'x' }),
    });
  });

  it('refuses what it does not know, naming it', () => {
    expect(refusal(['status', '--bogus'])).toBe("unknown option '--bogus'");
    expect(refusal(['status', '--json=yes'])).toBe("option '--json' takes no value");
    expect(refusal(['bogus'])).toBe("unknown command 'bogus'");
    expect(refusal(['terminate'])).toBe("missing required argument 'run'");
    expect(refusal(['status', 'extra'])).toBe("too many arguments for 'status': expected 0, got 1");
    expect(refusal(['status', '--root'])).toBe("option '--root <dir>' argument missing");
    expect(refusal(['status', '-L'])).toBe("option '-L, --socket-name <name>' argument missing");
    expect(refusal(['status', '--member', 'a'])).toBe("unknown option '--member'");
    expect(refusal(['status', '-V'])).toBe("unknown option '-V'");
    // A value that starts with a dash is given with `=`: `--config -odd` could be a forgotten value.
    expect(refusal(['status', '--config', '-odd'])).toBe(
      "option '--config <file>' needs its value: give one that starts with a dash as --config=VALUE",
    );
  });

  it('answers --help, help <command> and --version without running anything', () => {
    expect(parseArgv(PROGRAM, ['--version'])).toEqual({ kind: 'version', text: '9.9.9\n' });
    expect(parseArgv(PROGRAM, ['-V'])).toEqual({ kind: 'version', text: '9.9.9\n' });
    const top = parseArgv(PROGRAM, ['--help']);
    expect(top.kind).toBe('help');
    expect(top.kind === 'help' && top.text).toContain('terminate [options] <run>');
    expect(top.kind === 'help' && top.text).not.toContain('serve');
    expect(parseArgv(PROGRAM, ['help', 'terminate'])).toEqual(parseArgv(PROGRAM, ['terminate', '-h']));
    // Help wins over a missing argument: asking how to use a command is never an error.
    expect(parseArgv(PROGRAM, ['terminate', '--help']).kind).toBe('help');
  });
});

describe('helpText', () => {
  it('lists a command, its arguments and every option it takes, wrapped to the width', () => {
    const text = helpText(PROGRAM, PROGRAM.commands[1] ?? null, 60);
    expect(text.split('\n')[0]).toBe('Usage: tower terminate [options] <run>');
    expect(text).toMatch(/Arguments:\n {2}run {2,}the run\n/);
    for (const flags of [
      '--member <name>',
      '--timeout <seconds>',
      '-L, --socket-name <name>',
      '--no-local',
      '-h, --help',
    ])
      expect(text).toContain(flags);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
  });
});

describe('typos and what a command takes', () => {
  const said = async (argv: string[]): Promise<string> => {
    try {
      parseArgv(TOWER, argv);
    } catch (err) {
      if (err instanceof UsageError) return withSuggestion(err);
      throw err;
    }
    throw new Error(`${argv.join(' ')} was accepted`);
  };

  it('says the option or command that was most likely meant, and nothing when none is near', async () => {
    expect(await said(['status', '--jsn'])).toBe("unknown option '--jsn'; did you mean '--json'?");
    // One letter is near every other: a short option is taken for the one long option it starts.
    expect(await said(['status', '-j'])).toBe("unknown option '-j'; did you mean '--json'?");
    expect(await said(['status', '-q'])).toBe("unknown option '-q'");
    expect(await said(['grant', 'r', 'g', '--dryrun'])).toBe("unknown option '--dryrun'; did you mean '--dry-run'?");
    expect(await said(['stauts'])).toBe("unknown command 'stauts'; did you mean 'status'?");
    expect(await said(['status', '--zzzzzz'])).toBe("unknown option '--zzzzzz'");
  });

  it('refuses a global option a command does not take, and its help lists only what it takes', async () => {
    expect(await said(['demo', '--claude-dir', 'x'])).toBe(
      "tower demo does not take '--claude-dir' (tower demo --help lists what it takes)",
    );
    const demo = helpText(TOWER, TOWER.commands.find((c) => c.name === 'demo') ?? null);
    expect(demo).toContain('--socket-name');
    expect(demo).not.toMatch(/--root|--host|--socket-path|--demo\b/);
  });

  it('lists on each command only what it takes: no --readonly on status, no other box on hooks', async () => {
    const help = (name: string) => helpText(TOWER, TOWER.commands.find((c) => c.name === name) ?? null);
    expect(help('status')).not.toContain('--readonly');
    expect(help('status').replace(/\s+/g, ' ')).toContain('its shape: docs/status-json.md');
    expect(await said(['status', '--readonly'])).toBe(
      "tower status does not take '--readonly' (tower status --help lists what it takes)",
    );
    expect(help('hooks')).not.toMatch(/--host|--no-local|--demo\b/);
    expect(await said(['hooks', 'status', '--demo'])).toBe(
      "tower hooks does not take '--demo' (tower hooks --help lists what it takes)",
    );
    // What each command's help lists, it takes: every option parses.
    for (const command of TOWER.commands) {
      const flags = [...helpText(TOWER, command).matchAll(/^ {2}(?:-\w, )?(?: {4})?(--[a-z-]+)/gm)].map(
        (m) => m[1] ?? '',
      );
      expect(flags.length, command.name).toBeGreaterThan(1);
      for (const flag of flags.filter((f) => f !== '--help' && f !== '--version')) {
        const takesValue = new RegExp(`${flag} <`).test(helpText(TOWER, command));
        const args = (command.args ?? []).map(() => 'x');
        expect(
          () => parseArgv(TOWER, [command.name, ...args, takesValue ? `${flag}=1` : flag]),
          `${command.name} ${flag}`,
        ).not.toThrow();
      }
    }
  });

  it('points no help at a file the package does not have', () => {
    for (const command of TOWER.commands) expect(helpText(TOWER, command)).not.toContain('DESIGN.md');
  });
});

describe('main', () => {
  it('exits 2 on a usage error, before reading any config or state', async () => {
    expect(await main(['checkpoint', 'x', '--timeout', 'soon'])).toBe(2);
    expect(await main(['grant', 'only-a-run'])).toBe(2);
  });
});
