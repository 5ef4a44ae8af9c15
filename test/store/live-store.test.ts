import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Run, Snapshot } from '../../src/model/model.js';
import { defaultReaders, withRunReader } from '../../src/store/readers.js';
import type { SourceReaders } from '../../src/store/readers.js';
import { createLiveStore } from '../../src/store/live-store.js';
import { loadMarkdownReader } from '../../src/systems/tina/markdown.js';
import type { SnapshotStore } from '../../src/store/types.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { buildBox, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import type { TestContext } from '../helpers/context.js';
import { startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

/** A real tmux client that counts its polls, so a test can wait for ticks instead of sleeping. */
class CountingTmux extends TmuxClient {
  polls = 0;
  override async listPanes(opts: { signal?: AbortSignal } = {}) {
    const panes = await super.listPanes(opts);
    this.polls++;
    return panes;
  }
}

let box: Box;
let tmux: TmuxFixture;
let ctx: TestContext;
let store: SnapshotStore;
let emits: number;
const reads = { harness: 0, tina: 0 };

/** The real readers, counting how often harness and tina state is read. */
function counting(readers: SourceReaders, system: 'harness' | 'tina'): SourceReaders {
  const read = readers.systems.find((m) => m.system === system)?.readRun;
  if (!read) throw new Error(`no ${system} reader`);
  return withRunReader(readers, system, (...args) => {
    reads[system]++;
    return read(...args);
  });
}
const countingReaders: SourceReaders = counting(counting(defaultReaders, 'harness'), 'tina');

const byId = (s: Snapshot, id: string): Run | undefined => s.runs.find((r) => r.id === id);
const snap = (): Snapshot => store.getSnapshot();

// The handoff reader is loaded up front: a load one store started would otherwise land (and change
// the snapshot) during a later test (test/systems/handoff-on-demand.test.ts covers the loading).
beforeAll(() => loadMarkdownReader());

beforeEach(async () => {
  box = buildBox();
  tmux = await startTmux();
  ctx = testContext({
    claudeDir: box.claudeDir,
    roots: box.roots,
    socketName: tmux.name,
    home: box.dir,
    config: { pollIntervalMs: 100 },
  });
  ctx.tmux = new CountingTmux({ name: tmux.name }, 5000);
  store = createLiveStore(ctx, { readers: countingReaders });
  emits = 0;
  store.subscribe(() => emits++);
  await store.start();
});

afterEach(async () => {
  await store.stop();
  await tmux.kill();
  box.remove();
});

describe('live store', () => {
  it('starts with the full snapshot', () => {
    expect(snap().runs.map((r) => r.id)).toContain('tina:auth-flow');
    expect(snap().runs).toHaveLength(8);
  });

  it('shows a new file within 1 s, and only that run gets a new object', async () => {
    const before = snap();
    writeFile(
      path.join(box.project('sheets-clone'), '.papercusp', 'checkpoint-db-migration.md'),
      '# Checkpoint: db-migration (manual request)\n\nRequested at: 2026-01-26T12:00:00Z\n',
    );
    const after = await waitFor(
      () => (byId(snap(), 'harness:sheets-clone')?.gates.some((g) => g.id === 'db-migration') ? snap() : null),
      1000,
      {
        what: 'the new checkpoint',
      },
    );
    expect(after).not.toBe(before);
    expect(emits).toBeGreaterThanOrEqual(1);
    for (const run of after.runs) {
      if (run.id === 'harness:sheets-clone') expect(run).not.toBe(byId(before, run.id));
      else expect(run).toBe(byId(before, run.id));
    }
  });

  it('keeps the same snapshot object when a re-read or a poll finds nothing new', async () => {
    const before = snap();
    const emitted = emits;
    const harnessReads = reads.harness;
    const config = path.join(box.project('sheets-clone'), '.papercusp', 'config.json');
    fs.writeFileSync(config, fs.readFileSync(config));
    await waitFor(() => reads.harness > harnessReads, 5000, { what: 'the harness run to be re-read' });
    const polls = (ctx.tmux as CountingTmux).polls;
    await waitFor(() => (ctx.tmux as CountingTmux).polls >= polls + 2, 5000, { what: 'two more polls' });
    expect(snap()).toBe(before);
    expect(emits).toBe(emitted);
  });

  it('re-reads only the touched run: a harness write does not re-read tina', async () => {
    const tinaReads = reads.tina;
    const harnessReads = reads.harness;
    writeFile(
      path.join(box.project('sheets-clone'), '.papercusp', 'checkpoint-x.md'),
      '# Checkpoint: x (manual request)\n',
    );
    await waitFor(() => byId(snap(), 'harness:sheets-clone')?.gates.some((g) => g.id === 'x'), 5000, {
      what: 'gate x',
    });
    expect(reads.harness).toBeGreaterThan(harnessReads);
    expect(reads.tina).toBe(tinaReads);
  });

  it('re-reads nothing for a change outside the state dirs (or too deep inside one)', async () => {
    const tmuxPolls = () => (ctx.tmux as CountingTmux).polls;
    // Making the hook log folders is a change to the harness state dir itself: let it settle first.
    fs.mkdirSync(path.join(box.project('sheets-clone'), '.papercusp', 'logs', 'hooks', 'deep'), { recursive: true });
    let polls = tmuxPolls();
    await waitFor(() => tmuxPolls() >= polls + 2, 5000, { what: 'two more polls' });
    const before = { ...reads };
    const snapshot = snap();
    writeFile(path.join(box.project('auth-flow'), 'NOTES.md'), 'a file next to the state dir\n');
    writeFile(path.join(box.project('auth-flow'), '.claude', 'settings.json'), '{}');
    writeFile(
      path.join(box.project('sheets-clone'), '.papercusp', 'logs', 'hooks', '20260126-hook.log'),
      'hook output\n',
    );
    writeFile(path.join(box.project('sheets-clone'), '.papercusp', 'logs', 'hooks', 'deep', 'x.log'), 'too deep\n');
    polls = tmuxPolls();
    await waitFor(() => tmuxPolls() >= polls + 2, 5000, { what: 'two more polls' });
    expect(reads).toEqual(before);
    expect(snap()).toBe(snapshot);
  });

  it('a task written to a team tina merged updates the tina run', async () => {
    const before = snap();
    writeFile(path.join(box.claudeDir, 'tasks', 'auth-flow-phase-2', '5.json'), {
      id: '5',
      subject: 'Audit log',
      status: 'pending',
      owner: '',
      blockedBy: [],
    });
    await waitFor(() => byId(snap(), 'tina:auth-flow')?.tasks.some((t) => t.subject === 'Audit log'), 5000, {
      what: 'task 5 in the tina run',
    });
    expect(byId(snap(), 'claude-team:docs-sweep')).toBe(byId(before, 'claude-team:docs-sweep'));
    expect(snap().runs.some((r) => r.id === 'claude-team:auth-flow-phase-2')).toBe(false);
  });

  it('a new team becomes a run, and its task folder is watched from then on', async () => {
    const cfg = {
      name: 'hotfix',
      leadAgentId: 'lead',
      members: [{ name: 'lead', agentType: 'team-lead', model: 'm', tmuxPaneId: 'in-process' }],
    };
    writeFile(path.join(box.claudeDir, 'tasks', 'hotfix', '1.json'), {
      id: '1',
      subject: 'Patch',
      status: 'in_progress',
      blockedBy: [],
    });
    writeFile(path.join(box.claudeDir, 'teams', 'hotfix', 'config.json'), cfg);
    await waitFor(() => byId(snap(), 'claude-team:hotfix')?.tasks.length === 1, 5000, { what: 'the hotfix team run' });
    writeFile(path.join(box.claudeDir, 'tasks', 'hotfix', '2.json'), {
      id: '2',
      subject: 'Verify',
      status: 'pending',
      blockedBy: ['1'],
    });
    await waitFor(() => byId(snap(), 'claude-team:hotfix')?.tasks.length === 2, 5000, {
      what: 'the second hotfix task',
    });
  });

  it('an atomic write (temp file, then rename) is seen', async () => {
    const file = path.join(box.project('legacy-search'), '.tina', 'phase-1', 'status.json');
    const tmp = `${file}.tmp-123`;
    fs.writeFileSync(tmp, JSON.stringify({ status: 'executing', started_at: '2026-01-20T10:00:00Z' }));
    fs.renameSync(tmp, file);
    await waitFor(() => byId(snap(), 'tina:legacy-search')?.status === 'running', 5000, {
      what: 'legacy-search to run again',
    });
    expect(byId(snap(), 'tina:legacy-search')?.gates).toEqual([]);
  });

  it('a state dir created after start in a watched root becomes a run', async () => {
    await store.stop();
    ctx = { ...ctx, roots: [box.project('docs-site')] };
    store = createLiveStore(ctx);
    await store.start();
    expect(snap().problems.map((p) => p.file)).toContain(box.project('docs-site'));
    writeFile(
      path.join(box.project('docs-site'), '.harness', 'checkpoint-review.md'),
      '# Checkpoint: review (manual request)\n',
    );
    await waitFor(() => byId(snap(), 'harness:docs-site')?.gates[0]?.id === 'review', 5000, {
      what: 'the docs-site harness run',
    });
    expect(snap().problems.map((p) => p.file)).not.toContain(box.project('docs-site'));
  });

  it('a Claude dir created after start is read on refresh() and watched from then on', async () => {
    await store.stop();
    const late = path.join(box.dir, 'late-claude');
    ctx = { ...ctx, claudeDir: late, roots: [] };
    store = createLiveStore(ctx);
    await store.start();
    expect(snap().runs).toEqual([]);
    writeFile(path.join(late, 'teams', 'first', 'config.json'), {
      name: 'first',
      members: [{ name: 'lead', agentType: 'team-lead', tmuxPaneId: 'in-process' }],
    });
    fs.mkdirSync(path.join(late, 'tasks', 'first'), { recursive: true });
    store.refresh();
    await waitFor(() => byId(snap(), 'claude-team:first'), 5000, { what: 'the first team' });
    writeFile(path.join(late, 'tasks', 'first', '1.json'), {
      id: '1',
      subject: 'Start',
      status: 'pending',
      blockedBy: [],
    });
    await waitFor(() => byId(snap(), 'claude-team:first')?.tasks.length === 1, 5000, {
      what: 'its task, seen by watching',
    });
  });

  it('bursts of writes are batched into few emits', async () => {
    const emitted = emits;
    for (let i = 10; i < 30; i++) {
      writeFile(path.join(box.claudeDir, 'tasks', 'docs-sweep', `${i}.json`), {
        id: String(i),
        subject: `t${i}`,
        status: 'pending',
        blockedBy: [],
      });
    }
    await waitFor(() => byId(snap(), 'claude-team:docs-sweep')?.tasks.length === 22, 5000, {
      what: 'all 20 new tasks',
    });
    expect(emits - emitted).toBeLessThan(10);
  });

  it('follows panes: a session in a new project adds its root, liveness follows the pane, and the root goes when the pane does', async () => {
    const project = path.join(box.dir, 'projects', 'late-comer');
    writeFile(path.join(project, 'memory', 'state', 'phase.json'), {
      workflow_id: 'wf-late',
      current_phase: 'REQUIREMENTS',
      phase_status: 'in_progress',
    });
    const paneId = await tmux.newSession('late', project);
    await waitFor(() => byId(snap(), 'dotagent:wf-late'), 5000, { what: 'the root found from the pane cwd' });

    // A team whose member sits in a real pane: alive, then dead when the pane is killed.
    const worker = await tmux.newSession('worker', box.project('docs-site'));
    writeFile(path.join(box.claudeDir, 'teams', 'pair', 'config.json'), {
      name: 'pair',
      leadAgentId: 'w',
      members: [{ name: 'w', agentType: 'team-lead', model: 'm', tmuxPaneId: worker }],
    });
    await waitFor(() => byId(snap(), 'claude-team:pair')?.members[0]?.state === 'alive', 5000, {
      what: 'the worker alive',
    });
    await tmux.client.killPane(worker);
    await waitFor(() => byId(snap(), 'claude-team:pair')?.members[0]?.state === 'dead', 5000, {
      what: 'the worker dead',
    });

    await tmux.client.killPane(paneId);
    await waitFor(() => !byId(snap(), 'dotagent:wf-late'), 5000, { what: 'the root to be dropped' });
  });

  it('refresh(id) re-reads that run', async () => {
    const harnessReads = reads.harness;
    store.refresh('harness:sheets-clone');
    await waitFor(() => reads.harness === harnessReads + 1, 5000, { what: 'one harness re-read' });
  });
});

describe('stopping', () => {
  it('leaves nothing running: a process that starts and stops a store exits by itself', () => {
    const script = path.join(import.meta.dirname, '..', 'helpers', 'live-store-exit.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, box.claudeDir, ...box.roots], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^runs 8\nstopped\n$/);
    expect(r.status).toBe(0);
  });
});

describe('stop() during start()', () => {
  it('start() settles whatever moment stop() comes at', async () => {
    const b = buildBox();
    try {
      const c = testContext({ claudeDir: b.claudeDir, roots: b.roots, socketName: tmux.name, home: b.dir });
      // Stop at different points of start: while tmux answers, while chokidar gets ready, after.
      for (const delay of [0, 2, 5, 10, 20, 40, 80]) {
        const s = createLiveStore(c);
        const started = s.start().then(() => 'settled');
        await new Promise((r) => setTimeout(r, delay));
        await s.stop();
        const outcome = await Promise.race([started, new Promise((r) => setTimeout(() => r('hung'), 5000))]);
        expect(outcome, `stop() after ${delay} ms`).toBe('settled');
      }
    } finally {
      b.remove();
    }
  });
});
