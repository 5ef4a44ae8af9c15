/**
 * `tower watch` under faults: state dirs deleted and recreated, a tmux server that goes away, and
 * one that stops answering (SIGSTOP). Members become `unknown` everywhere, with one
 * `liveness-unknown` event; `member-died` stays for panes really gone while the server answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWatch } from '../../src/commands/watch.js';
import type { WatchEvent } from '../../src/commands/watch-events.js';
import { createLiveStore } from '../../src/store/live-store.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { harnessProject } from './cli-kit.js';
import { actionWorld, tinaFixture } from './kit.js';

let tmux: TmuxFixture;
let home: string;
beforeEach(async () => {
  tmux = await startTmux();
  home = tempDir('tower-home-');
});
afterEach(async () => {
  await tmux.kill();
});

function watching(w: ReturnType<typeof actionWorld>) {
  const events: WatchEvent[] = [];
  const ac = new AbortController();
  const done = runWatch(w.ctx, { autoCheckpoint: false, signal: ac.signal, emit: (e) => events.push(e) });
  return { events, stop: async () => (ac.abort(), await done) };
}

describe('watch after state dirs are deleted and recreated', () => {
  it('sees a whole project dir deleted and made again', async () => {
    const shop = tempDir('tower-shop-');
    harnessProject(shop);
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 500 } });
    w.ctx.roots = [shop];
    const { events, stop } = watching(w);
    try {
      await waitFor(() => events.some((e) => e.event === 'gate-opened' && e.gate === 'plan-approval'), 10_000, {
        what: 'the first gate',
      });
      fs.rmSync(shop, { recursive: true, force: true });
      await waitFor(() => events.some((e) => e.event === 'run-removed'), 5000, { what: 'the run to go' });
      const stateDir = harnessProject(shop);
      fs.writeFileSync(path.join(stateDir, 'checkpoint-again.md'), '# Checkpoint: again (manual request)\n');
      await waitFor(() => events.some((e) => e.event === 'gate-opened' && e.gate === 'again'), 5000, {
        what: 'the recreated gate',
      });
      // And it is watched again: a later change shows too.
      fs.writeFileSync(path.join(stateDir, 'checkpoint-later.md'), '# Checkpoint: later (manual request)\n');
      await waitFor(() => events.some((e) => e.event === 'gate-opened' && e.gate === 'later'), 5000, {
        what: 'a later gate',
      });
    } finally {
      await stop();
    }
  });

  it('sees a tina state dir deleted and made again under a project found from a pane', async () => {
    const fx = await tinaFixture(tmux, { home });
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 500 } });
    const { events, stop } = watching(w);
    try {
      await waitFor(() => events.some((e) => e.event === 'run-added' && e.run === 'tina:auth'), 10_000, {
        what: 'the tina run',
      });
      const saved = fs.readFileSync(path.join(fx.stateDir, 'supervisor-state.json'), 'utf8');
      fs.rmSync(path.join(fx.root, '.claude'), { recursive: true, force: true });
      await waitFor(() => events.some((e) => e.event === 'run-removed' && e.run === 'tina:auth'), 5000, {
        what: 'the run to go',
      });
      fs.mkdirSync(fx.stateDir, { recursive: true });
      fs.writeFileSync(path.join(fx.stateDir, 'supervisor-state.json'), saved);
      fs.writeFileSync(fx.signal, '{}\n');
      await waitFor(
        () => events.some((e) => e.event === 'gate-opened' && e.run === 'tina:auth' && e.gate === 'context'),
        5000,
        { what: 'the recreated run' },
      );
    } finally {
      await stop();
    }
  });

  it('sees the recreated project within seconds, as the screen does', async () => {
    const shop = tempDir('tower-shop-');
    const stateDir = harnessProject(shop);
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 500 } });
    w.ctx.roots = [shop];
    const { events, stop } = watching(w);
    try {
      await waitFor(() => events.some((e) => e.event === 'gate-opened' && e.gate === 'plan-approval'), 10_000, {
        what: 'the first gate',
      });
      fs.rmSync(stateDir, { recursive: true, force: true });
      await waitFor(() => events.some((e) => e.event === 'run-removed' || e.event === 'gate-closed'), 5000, {
        what: 'the run to go',
      });
      harnessProject(shop);
      fs.writeFileSync(path.join(stateDir, 'checkpoint-again.md'), '# Checkpoint: again (manual request)\n');
      const started = Date.now();
      await waitFor(() => events.some((e) => e.event === 'gate-opened' && e.gate === 'again'), 5000, {
        what: 'the recreated gate',
      });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await stop();
    }
  });
});

describe('watch when the tmux server goes away', () => {
  it('prints one liveness-unknown, members become unknown, and no member-died', async () => {
    const fx = await tinaFixture(tmux, { home });
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 200 } });
    w.ctx.roots = [fx.root];
    const { events, stop } = watching(w);
    try {
      await waitFor(() => events.some((e) => e.event === 'run-added'), 10_000);
      await tmux.kill();
      const unknown = await waitFor(() => events.find((e) => e.event === 'liveness-unknown'), 10_000, {
        what: 'liveness-unknown',
      });
      expect(unknown.reason).toMatch(/no tmux server/);
      // A few more polls: still one event, and nobody "died".
      await new Promise((r) => setTimeout(r, 800));
      expect(events.filter((e) => e.event === 'liveness-unknown')).toHaveLength(1);
      expect(events.some((e) => e.event === 'member-died')).toBe(false);
    } finally {
      await stop();
    }
  });
});

describe('a tmux server that stops answering (SIGSTOP)', () => {
  it('makes members unknown in the snapshot, as the problems say, and watch says liveness-unknown once', async () => {
    const fx = await tinaFixture(tmux, { home });
    const serverPid = Number(await tmux.client.displayMessage(fx.panes.lead, '#{pid}'));
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 200 } });
    w.ctx.roots = [fx.root];
    w.ctx.tmux = new TmuxClient({ name: tmux.name }, 400);
    const store = createLiveStore(w.ctx);
    const { events, stop } = watching(w);
    await store.start();
    try {
      const alive = () =>
        store
          .getSnapshot()
          .runs.find((r) => r.id === 'tina:auth')
          ?.members.filter((m) => m.state === 'alive').length ?? 0;
      expect(alive()).toBe(4);
      process.kill(serverPid, 'SIGSTOP');
      const run = await waitFor(
        () => {
          const r = store.getSnapshot().runs.find((x) => x.id === 'tina:auth');
          return r && r.members.every((m) => m.state === 'unknown') ? r : null;
        },
        10_000,
        { what: 'members to become unknown' },
      );
      expect(run.members).toHaveLength(4);
      expect(
        store
          .getSnapshot()
          .problems.map((p) => p.message)
          .join('\n'),
      ).toMatch(/liveness is unknown/);
      await waitFor(() => events.some((e) => e.event === 'liveness-unknown'), 10_000, { what: 'liveness-unknown' });
      expect(events.some((e) => e.event === 'member-died')).toBe(false);
      process.kill(serverPid, 'SIGCONT');
      await waitFor(() => alive() === 4, 10_000, { what: 'members alive again' });
    } finally {
      process.kill(serverPid, 'SIGCONT');
      await store.stop();
      await stop();
    }
  });
});
