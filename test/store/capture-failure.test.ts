/**
 * A capture round whose tmux call fails is a problem row on the live snapshot (the control room,
 * `tower watch`, `tower serve`), in the words `tower status` uses, gone once a round succeeds: one
 * row however many rounds fail, its message one sanitized line of bounded length. The tmux server
 * is real and private; only the capture call is made to fail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/model.js';
import { CAPTURE_PROBLEM_CHARS } from '../../src/store/activity-overlay.js';
import { createWatchedStore } from '../../src/store/live-activity.js';
import { snapshotWithActivity } from '../../src/store/this-box.js';
import { readSnapshot } from '../../src/store/snapshot.js';
import type { SnapshotStore } from '../../src/store/types.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { TmuxError } from '../../src/tmux/errors.js';
import { testContext } from '../helpers/context.js';
import { perTest } from '../helpers/per-test.js';
import { waitFor } from '../helpers/wait-for.js';

/** A real tmux client whose capture rounds fail with `failWith` while it is set. */
class FailingCaptures extends TmuxClient {
  failWith: (() => Error) | null = null;
  captureCalls = 0;
  override async run(args: readonly string[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    if (args.includes('capture-pane')) {
      this.captureCalls++;
      if (this.failWith) throw this.failWith();
    }
    return super.run(args, opts);
  }
}

const made = perTest();
let store: SnapshotStore | null = null;

afterEach(async () => {
  await store?.stop();
  store = null;
});

/** A session team whose lead sits in `pane` (keys as Claude Code writes them). */
function sessionTeam(claude: string, cwd: string, pane: string): void {
  const folder = 'session-0c6f3b1e-2a4d-4e8f-9b7a-5d1c3e2f4a60';
  const file = path.join(claude, 'teams', folder, 'config.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lead = `team-lead@${folder}`;
  fs.writeFileSync(
    file,
    JSON.stringify({
      name: folder,
      description: '',
      createdAt: Date.now(),
      leadAgentId: lead,
      leadSessionId: '0c6f3b1e-2a4d-4e8f-9b7a-5d1c3e2f4a60',
      members: [
        {
          agentId: lead,
          name: 'team-lead',
          agentType: 'team-lead',
          model: 'm',
          joinedAt: Date.now(),
          tmuxPaneId: pane,
          cwd,
        },
      ],
    }),
  );
}

const CAPTURE_ROW = /^tmux: .*; member activity is unknown$/;

async function setUp(): Promise<{ client: FailingCaptures; name: string; base: string; claude: string }> {
  const t = await made.tmux();
  const base = made.dir('tower-capture-failure-');
  const claude = path.join(base, 'claude');
  const cwd = path.join(base, 'project');
  fs.mkdirSync(cwd, { recursive: true });
  const pane = await t.newSession('lead', cwd, 'sleep 100000');
  sessionTeam(claude, cwd, pane);
  return { client: new FailingCaptures({ name: t.name }, 5000), name: t.name, base, claude };
}

describe('a capture round that fails', () => {
  it(
    'is one problem row on the live snapshot while rounds fail, in the words tower status uses, gone after one succeeds',
    { timeout: 30_000 },
    async () => {
      const { client, name, base, claude } = await setUp();
      const ctx = testContext({
        claudeDir: claude,
        socketName: name,
        home: base,
        config: { pollIntervalMs: 50 },
      });
      ctx.tmux = client;
      let n = 0;
      // Every failure says something else, with a pane's worth of text, escapes and newlines in it.
      client.failWith = () => new TmuxError('failed', `capture ${++n}\n\u001b[31m${'x'.repeat(10_000)}\u001b[0m`);
      const s = createWatchedStore(ctx).store;
      store = s;
      const rows = (): Problem[] => s.getSnapshot().problems.filter((p) => CAPTURE_ROW.test(p.message));
      await s.start();
      await waitFor(() => s.getSnapshot().runs.some((r) => r.members.some((m) => m.state === 'alive')), 10_000, {
        what: 'the lead alive in its pane',
      });
      await waitFor(() => client.captureCalls >= 3 && rows().length > 0, 10_000, { what: 'the capture problem' });
      const live = rows();
      expect(live).toHaveLength(1);
      const message = (live[0] as Problem).message;
      expect(message).not.toMatch(/[\n\u001b]/);
      expect(message.length).toBeLessThan(CAPTURE_PROBLEM_CHARS + 60);
      expect(message).toMatch(/^tmux: capture \d+ x+…; member activity is unknown$/);

      // `tower status` says the same of the same failure.
      client.failWith = () => new TmuxError('failed', 'capture went wrong');
      const panes = await client.listPanes();
      const read = readSnapshot({
        roots: [],
        claudeDir: claude,
        panes,
        settings: { ...DEFAULT_READ_SETTINGS, now: Date.now() },
        home: base,
        discover: false,
      });
      const status = (await snapshotWithActivity(client, read)).problems.filter((p) => CAPTURE_ROW.test(p.message));
      expect(status).toEqual([{ file: null, message: 'tmux: capture went wrong; member activity is unknown' }]);
      await waitFor(() => rows()[0]?.message === status[0]?.message, 10_000, {
        what: 'the live row in the same words',
      });

      client.failWith = null;
      await waitFor(() => rows().length === 0, 10_000, { what: 'the capture problem to clear' });
      expect(
        s
          .getSnapshot()
          .runs.flatMap((r) => r.members)
          .some((m) => m.activitySource === 'screen'),
      ).toBe(true);
    },
  );
});
