/**
 * An answer's round trip, key to agent (goal: median ≤ 100 ms on this box, ≤ 250 ms for a box over
 * ssh; printed, never asserted). The control room runs on its real screen in a tmux pane; a stand-in
 * agent (answer-agent.mjs) asks permission as Claude Code draws it, reads its terminal raw and
 * stamps when each key arrives; every other round it also holds the request through tower's
 * PermissionRequest hook line (as `tower hooks install --hold-permissions` writes it) and stamps
 * when the hook lets it through. Each round: the dialog is shown on tower's screen and older than
 * tower's least dialog age, `1` is pressed (timed until the confirm dialog is drawn), then `y`
 * (timed until the agent reads the digit and the Enter, or until the hook allows the request).
 * The `y` time is split where the action's `begun` audit line says it started: the screen's share
 * (key to action) and the action's (its tmux calls, or the answer file and the hook's look).
 * First with the agent on this box, then on a box reached over ssh (a private sshd, test/helpers/sshd.ts).
 *
 * With BENCH_BASE (the root of another source tree, built: its bin/tower.js, dist/ and src/, e.g.
 * `git archive main` unpacked, node_modules linked, `npm run build`), that build runs too, beside
 * this tree's own `npm run build` (run it first), each with its own hook line, in blocks that take turns with this one's on the same agents, so both see the same
 * load; figures are printed side by side, with the range of the blocks' medians.
 *
 *   node --import tsx test/bench/answer.bench.ts   BENCH_ROUNDS=N rounds per build and box (default 12),
 *                                                  BENCH_PASSES=P blocks they are cut into (default 2)
 */
import fs from 'node:fs';
import path from 'node:path';
import { hookCommand } from '../../src/commands/hooks-settings.js';
import { MIN_DIALOG_AGE_MS } from '../../src/store/prompt-reading.js';
import { agentPane, startFleet, tmuxOn, writeCrew } from '../helpers/ssh-fleet.js';
import type { ControlRoom, Fleet } from '../helpers/ssh-fleet.js';
import { waitFor } from '../helpers/wait-for.js';
import { median } from './ui-tmux.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const PASSES = Math.max(1, Math.min(ROUNDS, Number(process.env.BENCH_PASSES ?? 2)));
const BASE = process.env.BENCH_BASE;
const AGENT = path.join(import.meta.dirname, 'answer-agent.mjs');
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const now = () => performance.timeOrigin + performance.now();

interface Stamp {
  round: number;
  event: string;
  at: number;
  viaHook?: boolean;
}

/** One build: its launcher (undefined: the one built from this tree) and its hook line. */
interface Build {
  label: string;
  bin: string | undefined;
  hook: string;
}

const METRICS = {
  toDialog: '1 → its confirm dialog drawn',
  digit: 'y → the agent reads the digit (keys)',
  enter: 'y → the agent reads the Enter (keys)',
  keysStart: '  of which y → the action begun (keys)',
  keysAct: '  of which begun → the digit read',
  hook: 'y → the hook lets the request through',
  hookStart: '  of which y → the action begun (hook)',
  hookAct: '  of which begun → the hook lets it through',
} as const;
type Metric = keyof typeof METRICS;
/** A build's figures on one box: each metric's times, and each block's, for the range of their medians. */
type Figures = Record<Metric, number[][]> & { byKeysInHookRounds: number };
const newFigures = (): Figures => ({
  ...(Object.fromEntries(Object.keys(METRICS).map((k) => [k, []])) as unknown as Record<Metric, number[][]>),
  byKeysInHookRounds: 0,
});

/** The p-th percentile (nearest rank). */
function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

/** `median (p90) [lowest–highest block median]`, or `-`. */
function cell(blocks: readonly number[][]): string {
  const all = blocks.flat();
  if (all.length === 0) return '-';
  const meds = blocks.filter((b) => b.length > 0).map((b) => median(b));
  const range = meds.length > 1 ? ` [${Math.min(...meds).toFixed(0)}–${Math.max(...meds).toFixed(0)}]` : '';
  return `${median(all).toFixed(0)} (p90 ${pct(all, 90).toFixed(0)})${range} n=${all.length}`;
}

/** When the answer action that `y` started began, from its `begun` audit line (epoch ms), or null. */
function begunAfter(auditFile: string, since: number): number | null {
  let text = '';
  try {
    text = fs.readFileSync(auditFile, 'utf8');
  } catch {
    return null;
  }
  for (const l of text.split('\n')) {
    if (!l.includes('"begun"') || !l.includes('"answer"')) continue;
    const e = JSON.parse(l) as { time: string; outcome: string; action: string };
    const at = Date.parse(e.time);
    // The line's time has whole milliseconds: one that began in the millisecond of the key counts.
    if (e.outcome === 'begun' && e.action === 'answer' && at >= Math.floor(since)) return at;
  }
  return null;
}

/** The agent on one box, the control room that reaches it, where its audit goes. */
interface Box {
  label: string;
  goal: number;
  stamps: string;
  ask: string;
  hookFile: string;
  audit: string;
  /** Starts a control room of `build` (filtered to the agent's run); stops it again. */
  room(build: Build): Promise<ControlRoom>;
  stop(room: ControlRoom): Promise<void>;
}

let round = 0;

/** Runs `rounds` rounds on one box with one build, adding to its figures. */
async function block(box: Box, build: Build, rounds: number, figs: Figures): Promise<void> {
  const read = (): Stamp[] =>
    fs
      .readFileSync(box.stamps, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Stamp);
  const stampOf = (n: number, event: string) => read().find((s) => s.round === n && s.event === event);
  fs.writeFileSync(box.hookFile, `${build.hook}\n`);
  const room = await box.room(build);
  await room.waitForScreen(/Runs · \d+/, 60_000);
  await room.press('/', ...'crew'.split(''), 'Enter');
  const got = Object.fromEntries(Object.keys(METRICS).map((k) => [k, [] as number[]])) as Record<Metric, number[]>;
  for (let i = 0; i < rounds; i++) {
    const n = ++round;
    fs.writeFileSync(box.ask, `${n}\n`);
    const asked = await waitFor(() => stampOf(n, 'asked'), 10_000, { what: `round ${n} asked` });
    // Shown on tower's screen (the run asking, its dialog in the preview), and old enough to be typed
    // into, counted from when tower saw it (at the latest, when its screen showed it): the answer then
    // waits for no dialog age, which is not what is timed.
    await room.waitForScreen(`--round ${n}`, 20_000);
    await new Promise((r) => setTimeout(r, MIN_DIALOG_AGE_MS + 100));
    // A held request is read with the hook events: until it is, `1` would answer by keys. Its
    // confirm dialog says which way; one that would not go through the hook is closed and asked again.
    for (let tries = 0; ; tries++) {
      const t1 = now();
      await room.press('1');
      const dialog = await room.waitForScreen(/y run it/, 20_000);
      const through = /through the hook/i.test(dialog);
      if (!asked.viaHook || through || tries >= 20) {
        got.toDialog.push(now() - t1);
        break;
      }
      await room.press('Escape');
      await waitFor(async () => !/y run it/.test(await room.screen()), 10_000, { what: 'the dialog closed' });
      await new Promise((r) => setTimeout(r, 250));
    }
    const ty = now();
    await room.press('y');
    const done = await waitFor(() => stampOf(n, 'hook-allowed') ?? stampOf(n, 'keys-taken'), 20_000, {
      what: `round ${n} answered`,
      intervalMs: 5,
    });
    const begun = begunAfter(box.audit, ty);
    if (done.event === 'hook-allowed') {
      got.hook.push(done.at - ty);
      if (begun !== null) got.hookStart.push(begun - ty);
      if (begun !== null) got.hookAct.push(done.at - begun);
    } else {
      if (asked.viaHook) figs.byKeysInHookRounds++;
      const digit = stampOf(n, 'read-1');
      if (digit) got.digit.push(digit.at - ty);
      got.enter.push(done.at - ty);
      if (begun !== null) got.keysStart.push(begun - ty);
      if (begun !== null && digit) got.keysAct.push(digit.at - begun);
    }
    await room.waitForScreen(/answered|allowed|through the hook/, 20_000).catch(() => undefined);
  }
  for (const k of Object.keys(METRICS) as Metric[]) figs[k].push(got[k]);
  await box.stop(room);
}

/** Prints one box's figures, the builds side by side. */
function report(box: Box, builds: readonly Build[], figs: readonly Figures[]): void {
  console.log(`\n${box.label} (goal: median ≤ ${box.goal} ms); median (p90) [range of block medians], ms`);
  const width = Math.max(...Object.values(METRICS).map((m) => m.length)) + 2;
  console.log(`  ${''.padEnd(width)}${builds.map((b) => b.label.padEnd(44)).join('')}`);
  for (const [k, label] of Object.entries(METRICS) as [Metric, string][])
    console.log(`  ${label.padEnd(width)}${figs.map((f) => cell(f[k]).padEnd(44)).join('')}`);
  figs.forEach((f, i) => {
    if (f.byKeysInHookRounds)
      console.log(`  (${builds[i]!.label}: ${f.byKeysInHookRounds} hook rounds answered by keys: not yet read)`);
  });
}

/** Runs every build on `box`, in PASSES blocks each, taking turns. */
async function onBox(box: Box, builds: readonly Build[]): Promise<void> {
  const figs = builds.map(newFigures);
  const sizes = Array.from(
    { length: PASSES },
    (_, p) => Math.floor(((p + 1) * ROUNDS) / PASSES) - Math.floor((p * ROUNDS) / PASSES),
  );
  for (const size of sizes) for (const [i, b] of builds.entries()) await block(box, b, size, figs[i]!);
  report(box, builds, figs);
}

// Beside another build, this tree runs its own build too (`npm run build`), made the same way.
const builds: Build[] = [
  {
    label: 'this tree',
    bin: BASE ? path.join(import.meta.dirname, '../../bin/tower.js') : undefined,
    hook: hookCommand(60),
  },
];
if (BASE) {
  const settings = (await import(path.join(path.resolve(BASE), 'src/commands/hooks-settings.ts'))) as {
    hookCommand: (hold: number) => string;
  };
  builds.push({
    label: `base (${path.basename(BASE)})`,
    bin: path.join(path.resolve(BASE), 'bin/tower.js'),
    hook: settings.hookCommand(60),
  });
}

let fleet: Fleet | null = null;
try {
  fleet = await startFleet('tower-bench-answer', { q: 'quay' });
  const f = fleet;
  const files = (name: string) => {
    const made = {
      stamps: path.join(f.dir, `${name}.stamps`),
      ask: path.join(f.dir, `${name}.ask`),
      hookFile: path.join(f.dir, `${name}.hook`),
    };
    for (const file of Object.values(made)) fs.writeFileSync(file, '');
    return made;
  };
  const agent = (state: string, stamps: string, ask: string, hookFile: string) =>
    `env -u CI -u CONTINUOUS_INTEGRATION XDG_STATE_HOME=${quote(state)} TOWER_HOOK_FILE=${quote(hookFile)} ` +
    `node ${quote(AGENT)} ${quote(stamps)} ${quote(ask)}`;

  // On this box: the agent in a pane of the control room's own server, its team in the room's Claude dir.
  const localDir = path.join(f.dir, 'local-project');
  fs.mkdirSync(localDir, { recursive: true });
  const local = files('local');
  let roomName = '';
  const localBox: Box = {
    label: 'On this box',
    goal: 100,
    ...local,
    audit: path.join(f.home, 'state', 'tower', 'audit.jsonl'),
    room: async (build) => {
      const room = await f.controlRoom({ local: true }, build.bin);
      if (roomName === '') {
        roomName = path.basename((await room.tmux('display-message', '-p', '#{socket_path}')).trim());
        const pane = await agentPane(
          roomName,
          localDir,
          agent(path.join(f.home, 'state'), local.stamps, local.ask, local.hookFile),
        );
        writeCrew(path.join(f.home, 'claude'), localDir, [{ name: 'lead', pane, joinedAt: Date.now() }], Date.now());
      }
      return room;
    },
    stop: async (room) => {
      await room.tmux('kill-session', '-t', 'tower');
    },
  };
  await onBox(localBox, builds);
  await tmuxOn(roomName, 'kill-session', '-t', 'agents').catch(() => '');

  // Over ssh: the agent on box q, its tower serving over the private sshd.
  const q = f.boxes.q!;
  const remote = files('remote');
  const remotePane = await agentPane(
    q.socketName,
    q.root,
    agent(q.xdgState, remote.stamps, remote.ask, remote.hookFile),
  );
  writeCrew(q.claudeDir, q.root, [{ name: 'lead', pane: remotePane, joinedAt: Date.now() }], Date.now());
  const farBox: Box = {
    label: 'On a box over ssh',
    goal: 250,
    ...remote,
    audit: path.join(q.xdgState, 'tower', 'audit.jsonl'),
    room: async (build) => {
      const host = f.host(q);
      const tower = build.bin ? host.tower.replace(f.cli.bin, build.bin) : host.tower;
      // The room's server ended with the block before (its last session closed): a new one may
      // meet it still on its way out, which tmux says; it is started again once that one has gone.
      for (let tries = 0; ; tries++) {
        try {
          return await f.controlRoom({ local: false, hosts: [{ ...host, tower }] }, build.bin);
        } catch (err) {
          if (tries >= 50 || !/exited unexpectedly/.test(String(err))) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    stop: async (room) => {
      await room.tmux('kill-session', '-t', 'tower');
    },
  };
  await onBox(farBox, builds);
} finally {
  await fleet?.stop();
}
