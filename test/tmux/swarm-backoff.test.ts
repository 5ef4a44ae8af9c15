/**
 * A Claude Code swarm server that does not answer (stopped with SIGSTOP, for real) is set aside
 * after its timeout instead of being asked again at every scan: set aside 10 s, then twice as long
 * at each timeout in a row, and asked as usual again once it answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxClient } from '../../src/tmux/client.js';
import { SLOW_BACKOFF_MS, SwarmScanner } from '../../src/tmux/swarm.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';

const tempDir = tempDirsPerTest('tower-swarm-slow-');
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  cleanups = [];
});

/** A swarm server in `socketDir`, stopped; continued and killed after the test. */
async function stoppedSwarm(socketDir: string, pid: number): Promise<{ cont: () => void }> {
  const socket = path.join(socketDir, `claude-swarm-${pid}`);
  const client = new TmuxClient({ path: socket }, 5000);
  await client.run(['-f', '/dev/null', 'new-session', '-d', '-s', 'lead', 'sleep 100000']);
  const serverPid = Number((await client.run(['display-message', '-p', '#{pid}'])).trim());
  const cont = () => process.kill(serverPid, 'SIGCONT');
  cleanups.push(async () => {
    cont();
    await client.killServer().catch(() => {});
    fs.rmSync(socket, { force: true });
  });
  process.kill(serverPid, 'SIGSTOP');
  return { cont };
}

describe('a swarm server that does not answer', () => {
  it('is set aside with a backoff, and asked again once the backoff ends', async () => {
    const tmuxTmp = tempDir();
    const socketDir = path.join(tmuxTmp, `tmux-${process.getuid?.() ?? 0}`);
    fs.mkdirSync(socketDir, { mode: 0o700 });
    const stopped = [];
    for (const pid of [900_001, 900_002, 900_003]) stopped.push(await stoppedSwarm(socketDir, pid));
    let now = 1_000_000;
    const scanner = new SwarmScanner({ TMUX_TMPDIR: tmuxTmp }, { now: () => now, timeoutMs: 300 });
    const timed = async () => {
      const t = performance.now();
      const r = await scanner.scan();
      return { ...r, ms: performance.now() - t };
    };
    const first = await timed();
    expect(first.problems).toHaveLength(3);
    expect(first.problems.every((p) => /timed out/.test(p))).toBe(true);
    now += 1000;
    const second = await timed();
    expect(second.problems).toEqual(Array(3).fill(expect.stringMatching(/did not answer; set aside for 9 s more/)));
    console.log(`3 stopped swarm servers: a scan ${first.ms.toFixed(0)} ms, the next ${second.ms.toFixed(1)} ms`);
    // The backoff ends: asked again, times out again, and is set aside twice as long.
    now += SLOW_BACKOFF_MS;
    expect((await scanner.scan()).problems).toEqual(Array(3).fill(expect.stringMatching(/timed out/)));
    now += SLOW_BACKOFF_MS - 1000;
    expect((await scanner.scan()).problems).toEqual(Array(3).fill(expect.stringMatching(/set aside for 11 s more/)));
    // It answers again: listed as usual.
    for (const s of stopped) s.cont();
    now += SLOW_BACKOFF_MS + 2000;
    const back = await scanner.scan();
    expect(back.problems).toEqual([]);
    expect(back.servers.map((s) => s.name).sort()).toEqual([
      'claude-swarm-900001',
      'claude-swarm-900002',
      'claude-swarm-900003',
    ]);
  });
});
