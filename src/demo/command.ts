/**
 * `tower demo [--no-ui] [--dir DIR] [-L NAME]`: builds the sandbox on a tmux server of its own
 * (`tower-demo-XXXXXX`, or the free name given) and opens the control room on it; leaving the
 * control room kills only that server. Two demos never share a server, so one never stops another.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context/context.js';
import { DEMO_SOCKET_PREFIX } from '../context/demo-record.js';
import { TmuxClient } from '../tmux/client.js';
import { atEnd, endProcess, toStderr } from '../ui/terminal/ending.js';
import { installLifecycle, SIGNAL_CODES } from '../ui/terminal/lifecycle.js';
import { TmuxError } from '../tmux/errors.js';
import { DemoNotBuiltError, demoAgentScript } from './agent-path.js';
import { removeOldSandboxes } from './old-sandboxes.js';
import { offerToStopOrphans } from './orphans.js';
import { shellQuote } from './panes.js';
import type { DemoSandbox } from './sandbox.js';
import { DemoServerBusyError, buildSandbox } from './sandbox.js';
import { SandboxDirError, makeTempSandboxDir } from './sandbox-dir.js';

export const NO_TMUX_MESSAGE =
  'tower demo needs tmux: apt-get install tmux (Debian/Ubuntu) or brew install tmux (macOS)';

/** Options of runDemo: the command's, plus what tests inject. */
export interface DemoOptions {
  ui: boolean;
  dir?: string | undefined;
  /** The tmux socket name (tests use their own). */
  socketName: string;
  agentSpeed?: number;
  agentScript?: string;
  /** The sandbox is the demo's own (made in the temp folder): removed when a signal ends the demo. */
  removeSandbox?: boolean;
}

/** `tower demo [--no-ui] [--dir DIR] [-L NAME]`. */
export async function demoCommand(
  ctx: AppContext,
  opts: { ui: boolean; dir?: string | undefined; socketName?: string | undefined },
): Promise<number> {
  let dir = opts.dir;
  let socketName = opts.socketName;
  const removeSandbox = dir === undefined;
  // A demo nobody watches any more is said first (and, in a terminal, offered to be stopped).
  await offerToStopOrphans(ctx);
  if (dir === undefined) {
    // Sandboxes of earlier demos that nothing uses go first, then this one's is made.
    await removeOldSandboxes();
    dir = makeTempSandboxDir();
    // The server is named as its sandbox is (`tower-demo-XXXXXX`): either names the other.
    socketName ??= path.basename(dir);
  }
  socketName ??= `${DEMO_SOCKET_PREFIX}${crypto.randomBytes(3).toString('hex')}`;
  return runDemo(ctx, { ui: opts.ui, dir, socketName, removeSandbox });
}

async function hasTmux(): Promise<boolean> {
  try {
    await new TmuxClient().run(['-V']);
    return true;
  } catch (err) {
    if (err instanceof TmuxError && err.kind === 'not-installed') return false;
    throw err;
  }
}

/** The demo on a given socket; resolves to the exit code. */
export async function runDemo(ctx: AppContext, opts: DemoOptions): Promise<number> {
  if (!(await hasTmux())) {
    ctx.err.write(`${NO_TMUX_MESSAGE}\n`);
    return 1;
  }
  if (opts.ui && !(ctx.out as NodeJS.WriteStream).isTTY) {
    ctx.err.write(
      'tower demo: the control room needs a terminal; run `tower demo --no-ui` to build the sandbox ' +
        'and leave it running\n',
    );
    return 1;
  }
  // A signal or a lost terminal while the sandbox is built is acted on once it is (it is stopped).
  let endedBy: number | null = null;
  let demo: DemoSandbox | null = null;
  const finish = async (code: number): Promise<never> => {
    if (demo) await endDemo(demo, opts);
    return endProcess(code);
  };
  const uninstall = installLifecycle({
    onSignal(signal) {
      endedBy ??= SIGNAL_CODES[signal];
      if (demo) void finish(endedBy);
    },
    onCrash(error) {
      toStderr(`tower demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      void finish(1);
    },
  });
  try {
    return await runBuilt(ctx, opts, (built) => {
      demo = built;
      if (endedBy !== null) void finish(endedBy);
    });
  } finally {
    uninstall();
  }
}

/** Builds the sandbox and runs the control room on it. */
async function runBuilt(ctx: AppContext, opts: DemoOptions, built: (sandbox: DemoSandbox) => void): Promise<number> {
  let sandbox: DemoSandbox;
  try {
    sandbox = await buildSandbox(opts.dir ?? makeTempSandboxDir(), {
      socketName: opts.socketName,
      env: ctx.env,
      ...(opts.agentSpeed !== undefined ? { agentSpeed: opts.agentSpeed } : {}),
      ...(opts.agentScript !== undefined ? { agentScript: opts.agentScript } : {}),
    });
  } catch (err) {
    const known = [SandboxDirError, DemoNotBuiltError, DemoServerBusyError, TmuxError];
    if (!known.some((kind) => err instanceof kind)) throw err;
    ctx.err.write(`tower demo: ${(err as Error).message}\n`);
    return 1;
  }
  built(sandbox);

  if (!opts.ui) {
    ctx.out.write(instructions(sandbox));
    return 0;
  }

  const demoCtx: AppContext = {
    ...ctx,
    roots: sandbox.roots,
    claudeDir: sandbox.claudeDir,
    tmux: new TmuxClient({ name: opts.socketName }),
    discover: true,
    hosts: [],
    local: true,
    // The demo's actions are audited in its sandbox, never in the operator's own log.
    env: { ...ctx.env, XDG_STATE_HOME: sandbox.stateHome },
  };
  // A crash anywhere must not leave the agents running behind the user's back either.
  const unregister = atEnd(() => endDemo(sandbox, opts));
  let code = 1;
  try {
    const { runControlRoom } = await import('../ui/main.js');
    code = await runControlRoom(demoCtx);
    return code;
  } finally {
    unregister();
    if (code in ENDED_BY) {
      // A signal or a closed terminal: nobody is left to look at the sandbox or to read a word.
      await endDemo(sandbox, opts);
      await endProcess(code);
    }
    await sandbox.stop();
    ctx.out.write(`tower demo: stopped its tmux server (-L ${opts.socketName}). The sandbox stays at ${sandbox.dir}\n`);
  }
}

/** The exit codes of an ending by a signal or a lost terminal. */
const ENDED_BY = Object.fromEntries(Object.values(SIGNAL_CODES).map((c) => [c, true]));

/** Each sandbox's ending, once: a hang-up and the EIO it causes both end the demo. */
const endings = new WeakMap<DemoSandbox, Promise<void>>();

/** Stops the demo's server and agents, and removes its sandbox when the demo made it in the temp folder. */
function endDemo(sandbox: DemoSandbox, opts: DemoOptions): Promise<void> {
  let ending = endings.get(sandbox);
  if (!ending) {
    ending = (async () => {
      await sandbox.stop().catch(() => undefined);
      if (opts.removeSandbox) removeTreeQuietly(sandbox.dir);
    })();
    endings.set(sandbox, ending);
  }
  return ending;
}

/** Removes a folder, retrying a moment while an agent that is ending still writes into it. */
function removeTreeQuietly(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  } catch {
    // The next demo removes what is left (old-sandboxes.ts).
  }
}

/** How to run tower itself: `node bin/tower.js`, relative to the working directory when close by. */
function towerInvocation(): string {
  const bin = path.resolve(path.dirname(demoAgentScript()), '..', 'bin', 'tower.js');
  const rel = path.relative(process.cwd(), bin);
  return `node ${shellQuote(rel.startsWith('..') ? bin : rel)}`;
}

/** What `--no-ui` prints: what runs, and how to watch, inspect and stop it. */
export function instructions(sandbox: DemoSandbox, tower = towerInvocation()): string {
  // --demo finds the sandbox from its server; -L names this demo among others.
  const flags = `--demo -L ${shellQuote(sandbox.socketName)}`;
  const sessions = [...new Set([...sandbox.panes.keys()].map((k) => k.split('/')[0]))];
  return [
    `tower demo: sandbox ready at ${sandbox.dir}`,
    ...sandbox.summaries.map((s) => `  - ${s}`),
    `  ${sandbox.panes.size} fake agents run on the private tmux server -L ${sandbox.socketName} ` +
      `(sessions: ${sessions.join(', ')})`,
    `  actions on it are audited in ${path.join(sandbox.stateHome, 'tower', 'audit.jsonl')}`,
    '',
    'Open the control room on it:',
    `  ${tower} ${flags}`,
    'One snapshot, as JSON:',
    `  ${tower} status --json ${flags}`,
    'Watch an agent:',
    `  tmux -L ${sandbox.socketName} attach -t tina-checkout-flow-phase-2`,
    'Stop it (the agents die with their panes):',
    `  tmux -L ${sandbox.socketName} kill-server`,
    '',
  ].join('\n');
}
