import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Run, Snapshot } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { desktopBytes, titleBytes } from '../../src/notify/bytes.js';
import type { CommandOutcome } from '../../src/notify/command.js';
import { defaultNotifyConfig } from '../../src/config/notify.js';
import type { NotifyConfig } from '../../src/config/notify.js';
import type { Notice } from '../../src/notify/notices.js';
import { Notifier } from '../../src/notify/notifier.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/wait-for.js';
import { gate, member } from '../ui/fixtures.js';

const tempDir = tempDirsPerTest('tower-notify-');

function snap(runs: Run[]): Snapshot {
  return { version: 1, generatedAt: '2026-03-01T12:00:00.000Z', runs, problems: [] };
}

function harness(gates = [gate('plan-approval', { title: 'Approve the plan' })]): Run {
  return { ...emptyRun('harness', 'payments', '/p', '/p/.harness'), status: 'waiting', gates };
}

function team(patch: Partial<ReturnType<typeof member>> = {}): Run {
  return {
    ...emptyRun('claude-team', 'docs', null, null),
    status: 'running',
    members: [
      member('team-lead', { lead: true, paneId: '%1', state: 'alive', activity: 'working' }),
      member('writer-2', { paneId: '%2', state: 'alive', activity: 'working', ...patch }),
    ],
  };
}

function notifier(config: Partial<NotifyConfig> = {}, inTmux = false) {
  const written: string[] = [];
  const warnings: { notice: Notice; outcome: CommandOutcome }[] = [];
  const n = new Notifier({
    config: { ...defaultNotifyConfig(), ...config },
    write: (b) => written.push(b),
    inTmux,
    warn: (notice, outcome) => warnings.push({ notice, outcome }),
  });
  return { n, written, warnings };
}

describe('Notifier', () => {
  it('tells nothing for what the first snapshot shows; the title counts it', () => {
    const { n, written } = notifier();
    expect(n.observe(snap([harness()]))).toEqual([]);
    expect(written).toEqual(['\u001b]2;tower · 1 needs you\u001b\\']);
  });

  it('a gate that opens rings once: bell, then OSC 9, exact bytes outside tmux', () => {
    const { n, written } = notifier();
    n.observe(snap([harness([])]));
    written.length = 0;
    const news = n.observe(snap([harness()]));
    expect(news.map((x) => x.event)).toEqual(['gate-opened']);
    expect(written).toEqual([
      '\u0007',
      '\u001b]9;tower: harness:payments: Approve the plan\u0007',
      '\u001b]2;tower · 1 needs you\u001b\\',
    ]);
    // The same gate in the next snapshots is not news again.
    written.length = 0;
    expect(n.observe(snap([harness(), team()]))).toEqual([]);
    expect(written).toEqual([]);
  });

  it('inside tmux the desktop notification is wrapped for passthrough with every ESC doubled', () => {
    const { n, written } = notifier({ desktop: 'osc777' }, true);
    n.observe(snap([harness([])]));
    written.length = 0;
    n.observe(snap([harness()]));
    expect(written[1]).toBe(
      '\u001bPtmux;\u001b\u001b]777;notify;tower;harness:payments: Approve the plan\u0007\u001b\\',
    );
    expect(desktopBytes('osc9', 't', 'b', true)).toBe('\u001bPtmux;\u001b\u001b]9;t: b\u0007\u001b\\');
  });

  it('pane text cannot smuggle escapes into a notification or the title', () => {
    expect(desktopBytes('osc9', 'tower', 'run\u001b]2;evil\u0007: x\u0007', false)).toBe(
      '\u001b]9;tower: run: x\u0007',
    );
    expect(titleBytes('a\u001b[2Jb')).toBe('\u001b]2;ab\u001b\\');
  });

  it('member-waiting for a question prompt, member-died and a checkpoint timeout are each told once', () => {
    const { n } = notifier({ bell: false, desktop: false });
    n.observe(snap([team()]));
    const asking = team({ activity: 'waiting', activityCue: 'question', activitySince: '2026-03-01T12:01:00.000Z' });
    expect(n.observe(snap([asking])).map((x) => [x.event, x.title])).toEqual([
      ['member-waiting', 'claude-team:docs: writer-2 asks a question'],
    ]);
    expect(n.observe(snap([asking]))).toEqual([]);
    // A teammate idling at its prompt is not news; a dead pane is.
    expect(n.observe(snap([team({ activity: 'waiting', activityCue: 'prompt' })]))).toEqual([]);
    expect(n.observe(snap([team({ state: 'dead' })])).map((x) => x.event)).toEqual(['member-died']);
    const timeout = gate('checkpoint-timeout', { kind: 'escalation', grantable: false, title: 'Checkpoint timed out' });
    expect(n.observe(snap([harness([timeout])])).map((x) => x.event)).toEqual(['checkpoint-timeout']);
  });

  it('muted, or with an event left out of the config, nothing rings', () => {
    const { n, written } = notifier({ events: ['member-died'] });
    n.observe(snap([harness([])]));
    written.length = 0;
    n.observe(snap([harness()]));
    expect(written.filter((b) => b === '\u0007')).toEqual([]);
    const muted = notifier();
    muted.n.observe(snap([harness([])]));
    muted.n.setMuted(true);
    muted.written.length = 0;
    muted.n.observe(snap([harness()]));
    expect(muted.written).toEqual(['\u001b]2;tower · 1 needs you\u001b\\']);
  });

  it('runs the notify command with the event in its environment', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'env.txt');
    const { n, warnings } = notifier({
      bell: false,
      desktop: false,
      command: `printf '%s|%s|%s|%s|%s' "$TOWER_EVENT" "$TOWER_RUN" "$TOWER_GATE" "$TOWER_TITLE" "$TOWER_HOST" > '${out}'`,
    });
    n.observe(snap([harness([])]));
    n.observe(snap([harness()]));
    await n.settled();
    expect(fs.readFileSync(out, 'utf8')).toBe(
      'gate-opened|harness:payments|plan-approval|harness:payments: Approve the plan|',
    );
    expect(warnings).toEqual([]);
  });

  it('a failing notify command is reported, with what it said', async () => {
    const { n, warnings } = notifier({ bell: false, desktop: false, command: 'echo "no route to host" >&2; exit 7' });
    n.observe(snap([harness([])]));
    n.observe(snap([harness()]));
    await waitFor(() => warnings.length > 0);
    expect(warnings[0]?.outcome).toEqual({
      status: 'failed',
      message: 'notify command failed (exit 7): no route to host',
    });
  });

  it('a hanging notify command is killed at its time limit, with what it started', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const { n, warnings } = notifier({
      bell: false,
      desktop: false,
      timeoutSec: 0.5,
      command: `sleep 30 & echo $! > '${pidFile}'; wait`,
    });
    n.observe(snap([harness([])]));
    const started = Date.now();
    n.observe(snap([harness()]));
    await waitFor(() => warnings.length > 0, 5000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(warnings[0]?.outcome.status).toBe('timeout');
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
  });
});

describe('Notifier bounds', () => {
  const gates = (n: number, prefix = 'g') =>
    Array.from({ length: n }, (_, i) => gate(`${prefix}${i}`, { title: `Gate ${i}` }));

  it('a burst of gates at once is one bell, one desktop notification and one command run that sums it up', async () => {
    const out = path.join(tempDir(), 'runs');
    const { n, written } = notifier({ command: `printf '%s|%s\\n' "$TOWER_EVENT" "$TOWER_TITLE" >> '${out}'` });
    n.observe(snap([harness([])]));
    written.length = 0;
    expect(n.observe(snap([harness(gates(500))]))).toHaveLength(500);
    await n.settled();
    expect(written.filter((b) => b === '\u0007')).toHaveLength(1);
    expect(written.filter((b) => b.startsWith('\u001b]9;'))).toEqual([
      '\u001b]9;tower: 500 gate-opened: harness:payments: Gate 0, and 499 more\u0007',
    ]);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toEqual([
      'gate-opened|500 gate-opened: harness:payments: Gate 0, and 499 more',
    ]);
  });

  it('runs at most four commands at once; past the waiting ones, the rest are summed up in one run', async () => {
    const d = tempDir();
    const live = path.join(d, 'live');
    fs.mkdirSync(live);
    const log = path.join(d, 'log');
    // Each run notes how many others are running as it starts, then holds its slot a moment.
    const { n } = notifier({
      bell: false,
      desktop: false,
      command: `ls '${live}' | wc -l >> '${log}'; touch '${live}'/$$; sleep 0.3; rm '${live}'/$$`,
    });
    n.observe(snap([harness([])]));
    for (let i = 1; i <= 30; i++) n.observe(snap([harness(gates(i))]));
    await n.settled();
    const counts = fs.readFileSync(log, 'utf8').trim().split('\n').map(Number);
    // 4 at once + 16 waiting + one run summing up the 10 that found no room.
    expect(counts).toHaveLength(21);
    expect(Math.max(...counts)).toBeLessThan(4);
  }, 30_000);

  it('gives the command a gate id with a NUL as text without it, instead of failing to start', async () => {
    const out = path.join(tempDir(), 'env');
    const { n, warnings } = notifier({ bell: false, desktop: false, command: `printf '%s' "$TOWER_GATE" > '${out}'` });
    n.observe(snap([harness([])]));
    n.observe(snap([harness([gate('a\u0000b', { title: 'x' })])]));
    await n.settled();
    expect(warnings).toEqual([]);
    expect(fs.readFileSync(out, 'utf8')).toBe('ab');
  });
});
