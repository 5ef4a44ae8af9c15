/**
 * A team lead: a REPL in its pane (prompt `❯ `) that answers the checkpoint, clear and rehydrate
 * commands, while it keeps its phase heartbeat, raises its own context toward the checkpoint
 * threshold (`--climb`), narrates what its team does, and escalates after `--after` seconds when
 * told to. While its team has work left it shows a status line above its prompt, as Claude Code does
 * during a turn (`✻ Coordinating… (12s · esc to interrupt)`); when the work is done the line goes
 * and the lead waits at its prompt.
 */
import path from 'node:path';
import readline from 'node:readline';
import { ContextMeter } from './context-meter.js';
import type { LeadContext } from './lead-commands.js';
import { checkpoint, rehydrate } from './lead-commands.js';
import { PhaseStatus } from './phase-status.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';
import { readTasks } from './tasks.js';

const PROMPT = '❯ ';
/** Where the gauge starts when the sandbox wrote no metrics. */
const START_PCT = 55;
// tina's plugin skills are namespaced; the bare forms are what a plain Claude Code team is sent.
const CHECKPOINT_COMMANDS = new Set(['/tina:checkpoint', '/checkpoint']);
const REHYDRATE_COMMANDS = new Set(['/tina:rehydrate', '/rehydrate']);

function startPct(rt: AgentRuntime, stateDir: string): number {
  const pct = rt.readObject(path.join(stateDir, 'context-metrics.json'))?.used_pct;
  return typeof pct === 'number' && pct >= 0 && pct < 100 ? pct : START_PCT;
}

/** Does what a line typed at the lead's prompt asks: a cycle command, /clear, /help, or a thought. */
async function command(lc: LeadContext, line: string): Promise<void> {
  const rt = lc.rt;
  if (line === '') return;
  if (CHECKPOINT_COMMANDS.has(line)) await checkpoint(lc);
  else if (REHYDRATE_COMMANDS.has(line)) await rehydrate(lc);
  else if (line === '/clear') process.stdout.write('\u001b[2J\u001b[3J\u001b[H');
  else if (line === '/help')
    rt.print(style.dim('/tina:checkpoint (or /checkpoint) · /clear · /tina:rehydrate (or /rehydrate)'));
  else rt.print(style.dim(`(thinking about: ${line})`));
}

/** Narrates the team's progress as the task files change (quiet: only notes where each task is). */
function narrator(rt: AgentRuntime, tasks: string | undefined): (quiet: boolean) => void {
  const seen = new Map<string, string>();
  return (quiet) => {
    if (!tasks) return;
    for (const t of readTasks(rt, tasks)) {
      const before = seen.get(t.id);
      seen.set(t.id, t.status);
      if (quiet || before === undefined || before === t.status) continue;
      if (t.status === 'completed') rt.print(`● task ${t.id} completed by ${t.owner ?? 'someone'} · ${t.subject}`);
      else if (t.status === 'in_progress')
        rt.print(`● task ${t.id} assigned to ${t.owner ?? 'someone'} · ${t.subject}`);
    }
  };
}

/** Blocks the phase `after` seconds in, as a reviewer that rejected it three times would. */
function escalateAfter(rt: AgentRuntime, phaseStatus: PhaseStatus, tasks: string | undefined, after: number): void {
  rt.after(after * 1000, async () => {
    const all = tasks ? readTasks(rt, tasks) : [];
    const done = all.filter((t) => t.status === 'completed').length;
    await phaseStatus.block('Phase reviewer rejected 3 times', {
      last_rejection: 'Ranking test coverage below 80%',
      attempts: 3,
      tasks_completed: done,
      tasks_remaining: all.length - done,
    });
  });
}

/** What the lead's commands act on: its phase, its state, tasks and team files, its context gauge. */
function leadContext(rt: AgentRuntime): LeadContext {
  const { state, phase = '1', tasks, team, climb } = rt.opts;
  return {
    rt,
    phase,
    stateDir: state ?? null,
    tasksDir: tasks ?? null,
    teamFile: team ?? null,
    phaseStatus: state ? new PhaseStatus(rt, state, phase) : null,
    meter: state && climb ? new ContextMeter(rt, state, startPct(rt, state)) : null,
  };
}

/** Starts the lead. */
export function runLead(rt: AgentRuntime): void {
  const { tasks, team, after } = rt.opts;
  const lc = leadContext(rt);
  const phaseStatus = lc.phaseStatus;

  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: PROMPT,
    terminal: Boolean(process.stdin.isTTY),
  });
  let busy = true;
  let statusShown = false;
  let coordinatingSince: number | null = null;
  const teamName = team ? path.basename(path.dirname(team)) : 'team';
  const statusLine = (): string => {
    if (coordinatingSince === null) return '';
    return `✻ Coordinating ${teamName}… (${Math.floor((Date.now() - coordinatingSince) / 1000)}s · esc to interrupt)`;
  };
  // Lines printed between commands go above the status line and the prompt, which are drawn again below them.
  rt.printHook = {
    before: () => {
      if (busy) return;
      readline.clearLine(process.stdout, 0);
      readline.cursorTo(process.stdout, 0);
      if (statusShown) process.stdout.write('\u001b[1A\r\u001b[2K');
      statusShown = false;
    },
    after: () => {
      if (busy) return;
      const status = statusLine();
      if (status) process.stdout.write(`${style.dim(status)}\n`);
      statusShown = status !== '';
      rl.prompt(true);
    },
  };
  const redraw = () => {
    rt.printHook?.before();
    rt.printHook?.after();
  };
  rt.onStop(() => rl.close());
  rl.on('SIGINT', () => rt.stop(0));
  rl.on('close', () => rt.stop(0));

  rt.print(style.bold(`✻ ${rt.opts.title ?? `team-lead · ${teamName}`}`));
  rt.print(style.dim(`  team ${teamName} · commands: /tina:checkpoint /clear /tina:rehydrate /help`));
  rt.print('');

  const handle = async (line: string): Promise<void> => {
    busy = true;
    // The status line sits two lines up now (the typed line moved the cursor down): blank it.
    if (statusShown) process.stdout.write('\u001b[2A\r\u001b[2K\u001b[2B\r');
    statusShown = false;
    try {
      await command(lc, line);
    } finally {
      busy = false;
      rl.prompt();
    }
  };
  let queue = Promise.resolve();
  rl.on('line', (line) => {
    queue = queue.then(() => handle(line.trim()));
  });

  const narrate = narrator(rt, tasks);
  narrate(true);

  rt.every(
    4000,
    4000,
    () => {
      phaseStatus?.heartbeat();
      if (phaseStatus?.status() === 'executing') lc.meter?.climb();
      narrate(false);
      const all = tasks ? readTasks(rt, tasks) : [];
      const left = all.some((t) => t.status !== 'completed');
      if (left && coordinatingSince === null) coordinatingSince = Date.now();
      if (!left) coordinatingSince = null;
      redraw();
    },
    1500,
  );

  if (phaseStatus && after !== undefined) escalateAfter(rt, phaseStatus, tasks, after);

  busy = false;
  rl.prompt();
}
