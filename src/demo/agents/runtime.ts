/**
 * What every fake agent shares: its options, a clock scaled by the demo speed, timers that stop on
 * SIGTERM/SIGHUP, and file access that refuses any path outside the sandbox and never throws on a
 * missing or garbled file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isInside, readJsonObject, writeJsonAtomic, writeTextAtomic } from '../files.js';

/** The command-line options an agent is started with (each role uses the ones it needs). */
export interface AgentOptions {
  /** The sandbox root: every write must land inside it. */
  sandbox: string;
  /** Time multiplier: 1 is the pace a newcomer watches, tests run faster. */
  speed: number;
  /** The member name the agent plays (`worker-1`, `team-lead`). */
  name: string;
  /** A state directory (`.claude/tina`, `.papercusp`, `.sage/state`, `memory/state`). */
  state?: string | undefined;
  /** The team's task folder (`<claude>/tasks/<team>`). */
  tasks?: string | undefined;
  /** The team's config file (`<claude>/teams/<team>/config.json`). */
  team?: string | undefined;
  /** The phase a tina agent works on. */
  phase?: string | undefined;
  /** Reviewer kind: `spec` or `quality`. */
  kind?: string | undefined;
  /** A task id the reviewer fails once, or the worker never finishes. */
  task?: string | undefined;
  /** Seconds before the agent's scripted event (a checkpoint fires, a phase blocks). */
  after?: number | undefined;
  /** Whether the lead's context climbs toward the checkpoint threshold. */
  climb: boolean;
  /** A title line for agents that mostly wait. */
  title?: string | undefined;
  /** A shell command the worker asks permission for before its first task (it waits for an answer). */
  ask?: string | undefined;
  /** Why the agent asks (Codex's dialog prints the model's reason). */
  reason?: string | undefined;
}

/** Parses `<role> --flag value ...` (the role is taken off before). */
export function parseAgentArgs(argv: string[]): AgentOptions {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: false,
    strict: true,
    options: {
      sandbox: { type: 'string' },
      speed: { type: 'string' },
      name: { type: 'string' },
      state: { type: 'string' },
      tasks: { type: 'string' },
      team: { type: 'string' },
      phase: { type: 'string' },
      kind: { type: 'string' },
      task: { type: 'string' },
      after: { type: 'string' },
      climb: { type: 'boolean' },
      title: { type: 'string' },
      ask: { type: 'string' },
      reason: { type: 'string' },
    },
  });
  if (!values.sandbox) throw new Error('--sandbox is required');
  const speed = Number(values.speed ?? '1');
  const after = values.after === undefined ? undefined : Number(values.after);
  return {
    sandbox: path.resolve(values.sandbox),
    speed: Number.isFinite(speed) && speed > 0 ? speed : 1,
    name: values.name ?? 'agent',
    state: values.state,
    tasks: values.tasks,
    team: values.team,
    phase: values.phase,
    kind: values.kind,
    task: values.task,
    after: after !== undefined && Number.isFinite(after) ? after : undefined,
    climb: Boolean(values.climb),
    title: values.title,
    ask: values.ask,
    reason: values.reason,
  };
}

/**
 * Where a write to `file` really lands: the real path of its deepest existing directory, plus the
 * rest. A symlinked directory inside the sandbox pointing elsewhere is caught by checking this.
 */
function realTarget(file: string): string {
  let dir = path.dirname(path.resolve(file));
  const rest = [path.basename(file)];
  for (;;) {
    try {
      return path.join(fs.realpathSync(dir), ...rest);
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return path.resolve(file);
      rest.unshift(path.basename(dir));
      dir = parent;
    }
  }
}

/** Styling for pane output; panes are real terminals, and capture-pane drops the escapes. */
export const style = {
  dim: (s: string) => `\u001b[2m${s}\u001b[0m`,
  bold: (s: string) => `\u001b[1m${s}\u001b[0m`,
  green: (s: string) => `\u001b[32m${s}\u001b[0m`,
  amber: (s: string) => `\u001b[33m${s}\u001b[0m`,
  red: (s: string) => `\u001b[31m${s}\u001b[0m`,
  cyan: (s: string) => `\u001b[36m${s}\u001b[0m`,
};

/** One running agent: its clock, its timers, its guarded file access and its output. */
export class AgentRuntime {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopHooks: Array<() => void> = [];
  private stopped = false;
  /** Called before each printed line and after it (the REPL redraws its prompt). */
  printHook: { before: () => void; after: () => void } | null = null;

  /** The sandbox with symlinks resolved, to compare real write targets with. */
  private readonly realSandbox: string;

  constructor(readonly opts: AgentOptions) {
    let real: string;
    try {
      real = fs.realpathSync(opts.sandbox);
    } catch {
      real = realTarget(opts.sandbox);
    }
    this.realSandbox = real;
  }

  /** Ends the agent cleanly on SIGTERM, SIGHUP and SIGINT, and when its terminal goes away. */
  installSignalHandlers(): void {
    for (const sig of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(sig, () => this.stop(0));
    // A pane that closes under us turns writes into EIO/EPIPE: that is the end of the agent, not a crash.
    process.stdout.on('error', () => this.stop(0));
  }

  /** Runs `fn` when the agent stops. */
  onStop(fn: () => void): void {
    this.stopHooks.push(fn);
  }

  /** Stops every timer, runs the stop hooks and exits. */
  stop(code: number): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const fn of this.stopHooks) {
      try {
        fn();
      } catch {
        // stopping must not fail halfway; the process exits next anyway
      }
    }
    process.exit(code);
  }

  /** Real milliseconds for a duration in demo time. */
  scaled(ms: number): number {
    return Math.max(10, Math.round(ms / this.opts.speed));
  }

  /** Runs `fn` once after `ms` of demo time. */
  after(ms: number, fn: () => void | Promise<void>): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      void this.guarded(fn);
    }, this.scaled(ms));
    this.timers.add(t);
  }

  /** Runs `fn` every `minMs`..`maxMs` of demo time; a tick never overlaps the previous one. */
  every(minMs: number, maxMs: number, fn: () => void | Promise<void>, firstMs?: number): void {
    const next = (delay: number) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        void this.guarded(fn).then(() => {
          if (!this.stopped) next(minMs + Math.random() * (maxMs - minMs));
        });
      }, this.scaled(delay));
      this.timers.add(t);
    };
    next(firstMs ?? minMs + Math.random() * (maxMs - minMs));
  }

  /** Waits `ms` of demo time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, this.scaled(ms));
      this.timers.add(t);
    });
  }

  private async guarded(fn: () => void | Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      // An agent keeps going after a bad tick: the next one may find the file whole again.
      this.print(style.red(`! ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  /** Prints one line to the pane. */
  print(line: string): void {
    if (this.stopped) return;
    this.printHook?.before();
    process.stdout.write(`${line}\n`);
    this.printHook?.after();
  }

  /** The path, if it lies inside the sandbox; anything else is refused. */
  guard(file: string): string {
    if (!isInside(this.opts.sandbox, file) || !isInside(this.realSandbox, realTarget(file))) {
      throw new Error(`refusing to write outside the sandbox: ${file}`);
    }
    return file;
  }

  /** A JSON object from a file, or null when it is missing, empty, garbled or not an object. */
  readObject(file: string): Record<string, unknown> | null {
    return readJsonObject(file);
  }

  /** Text of a file, or null. */
  readText(file: string): string | null {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  }

  /** Writes JSON atomically inside the sandbox. */
  writeJson(file: string, value: unknown): void {
    writeJsonAtomic(this.guard(file), value);
  }

  /** Writes text atomically inside the sandbox. */
  writeText(file: string, text: string): void {
    writeTextAtomic(this.guard(file), text);
  }

  /** Appends to a log file inside the sandbox (logs are appended, never rewritten). */
  appendText(file: string, text: string): void {
    fs.mkdirSync(path.dirname(this.guard(file)), { recursive: true });
    fs.appendFileSync(file, text);
  }

  /** Deletes a file inside the sandbox (a missing file is fine). */
  removeFile(file: string): void {
    fs.rmSync(this.guard(file), { force: true });
  }

  /**
   * Runs a read-modify-write of `target` (a file or folder) under a lock shared by the agents of
   * this sandbox, so two agents updating one file (two reviewers, two workers claiming a task)
   * never lose each other's change.
   */
  async withLock<T>(target: string, fn: () => T): Promise<T> {
    const name = path.relative(this.opts.sandbox, path.resolve(target)).replace(/[^A-Za-z0-9_.-]/g, '_');
    const lock = this.guard(path.join(this.opts.sandbox, '.locks', name));
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    for (let i = 0; ; i++) {
      try {
        fs.mkdirSync(lock);
        break;
      } catch {
        // A lock left by an agent killed mid-write is stale after a few seconds.
        const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
        if (age > 3000 || i > 300) fs.rmSync(lock, { recursive: true, force: true });
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    try {
      return fn();
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}
