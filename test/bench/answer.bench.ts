/**
 * An answer's round trip, key to agent (goal: median ≤ 100 ms on this box, ≤ 250 ms for a box over
 * ssh; printed, never asserted). The control room runs on its real screen in a tmux pane; a stand-in
 * agent (answer-agent.mjs) asks permission as Claude Code draws it, reads its terminal raw and
 * stamps when each key arrives; every other round it also holds the request through tower's
 * PermissionRequest hook line (as `tower hooks install --hold-permissions` writes it) and stamps
 * when the hook lets it through. Each round: the dialog is shown on tower's screen and older than
 * tower's least dialog age, `1` is pressed (timed until the confirm dialog is drawn), then `y`
 * (timed until the agent reads the digit and the Enter, or until the hook allows the request).
 * First with the agent on this box, then on a box reached over ssh (a private sshd, test/helpers/sshd.ts).
 *
 *   node --import tsx test/bench/answer.bench.ts      BENCH_ROUNDS=N rounds per box (default 12)
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
const AGENT = path.join(import.meta.dirname, 'answer-agent.mjs');
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

interface Stamp {
  round: number;
  event: string;
  at: number;
  viaHook?: boolean;
}

/** The p-th percentile (nearest rank). */
function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

const figures = (xs: readonly number[]) =>
  xs.length ? `median ${median(xs).toFixed(0)} ms, p90 ${pct(xs, 90).toFixed(0)} ms (n=${xs.length})` : 'none';

/** Runs the rounds against one agent; returns the figures by what was timed. */
async function measure(
  label: string,
  room: ControlRoom,
  stamps: string,
  askFile: string,
  goal: number,
  filter: string,
): Promise<void> {
  const read = (): Stamp[] =>
    fs
      .readFileSync(stamps, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Stamp);
  const stampOf = (round: number, event: string) => read().find((s) => s.round === round && s.event === event);
  await room.waitForScreen(/Runs · \d+/, 60_000);
  await room.press('/', ...filter.split(''), 'Enter');
  const toDialog: number[] = [];
  const keys = { digit: [] as number[], enter: [] as number[] };
  const hook: number[] = [];
  let byKeysInHookRounds = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    fs.writeFileSync(askFile, `${round}\n`);
    const asked = await waitFor(() => stampOf(round, 'asked'), 10_000, { what: `round ${round} asked` });
    // Shown on tower's screen (the run asking, its dialog in the preview), and old enough to be typed into.
    await room.waitForScreen(`--round ${round}`, 20_000);
    const age = MIN_DIALOG_AGE_MS + 300 - (Date.now() - asked.at);
    if (age > 0) await new Promise((r) => setTimeout(r, age));
    // A held request is read with the hook events: until it is, `1` would answer by keys. Its
    // confirm dialog says which way; one that would not go through the hook is closed and asked again.
    for (let tries = 0; ; tries++) {
      const t1 = performance.timeOrigin + performance.now();
      await room.press('1');
      const dialog = await room.waitForScreen(/y run it/, 20_000);
      const through = /through the hook/i.test(dialog);
      if (!asked.viaHook || through || tries >= 20) {
        toDialog.push(performance.timeOrigin + performance.now() - t1);
        break;
      }
      await room.press('Escape');
      await waitFor(async () => !/y run it/.test(await room.screen()), 10_000, { what: 'the dialog closed' });
      await new Promise((r) => setTimeout(r, 250));
    }
    const ty = performance.timeOrigin + performance.now();
    await room.press('y');
    const done = await waitFor(() => stampOf(round, 'hook-allowed') ?? stampOf(round, 'keys-taken'), 20_000, {
      what: `round ${round} answered`,
      intervalMs: 5,
    });
    if (done.event === 'hook-allowed') hook.push(done.at - ty);
    else {
      if (asked.viaHook) byKeysInHookRounds++;
      const digit = stampOf(round, 'read-1');
      if (digit) keys.digit.push(digit.at - ty);
      keys.enter.push(done.at - ty);
    }
    await room.waitForScreen(/answered|allowed|through the hook/, 20_000).catch(() => undefined);
  }
  console.log(`\n${label} (goal: median ≤ ${goal} ms)`);
  console.log(`  1 → its confirm dialog drawn               ${figures(toDialog)}`);
  console.log(`  y → the agent reads the digit (keys)        ${figures(keys.digit)}`);
  console.log(`  y → the agent reads the Enter (keys)        ${figures(keys.enter)}`);
  console.log(`  y → the hook lets the request through       ${figures(hook)}`);
  if (byKeysInHookRounds)
    console.log(`  (${byKeysInHookRounds} hook rounds were answered by keys: the request not yet read)`);
}

let fleet: Fleet | null = null;
try {
  fleet = await startFleet('tower-bench-answer', { q: 'quay' });
  const f = fleet;
  // On this box: the agent in a pane of the control room's own server, its team in the room's Claude dir.
  const localDir = path.join(f.dir, 'local-project');
  fs.mkdirSync(localDir, { recursive: true });
  const local = { stamps: path.join(f.dir, 'local.stamps'), ask: path.join(f.dir, 'local.ask') };
  for (const file of [local.stamps, local.ask]) fs.writeFileSync(file, '');
  const env = (state: string) =>
    `env -u CI -u CONTINUOUS_INTEGRATION XDG_STATE_HOME=${quote(state)} TOWER_HOOK=${quote(hookCommand(60))}`;
  const room = await f.controlRoom({ local: true });
  const roomSocket = (await room.tmux('display-message', '-p', '#{socket_path}')).trim();
  const roomName = path.basename(roomSocket);
  const localPane = await agentPane(
    roomName,
    localDir,
    `${env(path.join(f.home, 'state'))} node ${quote(AGENT)} ${quote(local.stamps)} ${quote(local.ask)}`,
  );
  writeCrew(
    path.join(f.home, 'claude'),
    localDir,
    [{ name: 'lead', pane: localPane, joinedAt: Date.now() }],
    Date.now(),
  );
  await measure('On this box', room, local.stamps, local.ask, 100, 'crew');
  await room.tmux('kill-session', '-t', 'tower');
  await tmuxOn(roomName, 'kill-session', '-t', 'agents').catch(() => '');

  // Over ssh: the agent on box q, its tower serving over the private sshd.
  const box = f.boxes.q!;
  const remote = { stamps: path.join(f.dir, 'remote.stamps'), ask: path.join(f.dir, 'remote.ask') };
  for (const file of [remote.stamps, remote.ask]) fs.writeFileSync(file, '');
  const remotePane = await agentPane(
    box.socketName,
    box.root,
    `${env(box.xdgState)} node ${quote(AGENT)} ${quote(remote.stamps)} ${quote(remote.ask)}`,
  );
  writeCrew(box.claudeDir, box.root, [{ name: 'lead', pane: remotePane, joinedAt: Date.now() }], Date.now());
  const far = await f.controlRoom({ local: false, hosts: [f.host(box)] });
  await measure('On a box over ssh', far, remote.stamps, remote.ask, 250, 'crew');
} finally {
  await fleet?.stop();
}
