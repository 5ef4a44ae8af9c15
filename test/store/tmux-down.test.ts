/**
 * tower's own tmux server not running, for real: `tower status` and the screen say so at the top
 * (not only "No runs found", not "5 need you" over members that died with it), members are unknown,
 * and a capture taken before is not shown as live.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Member } from '../../src/model/model.js';
import { createLiveStore } from '../../src/store/live-store.js';
import type { PaneLook } from '../../src/store/captures.js';
import { buildSnapshot } from '../../src/store/snapshot.js';
import { headerLine } from '../../src/ui/components/chrome.js';
import { previewFrame } from '../../src/ui/panes/preview-lines.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const text = (segments: { text: string }[]) => segments.map((s) => s.text).join('');
let tmux: TmuxFixture | null = null;

afterEach(async () => {
  await tmux?.kill();
  tmux = null;
});

describe("tower's tmux server is not running", () => {
  it('is said by status (a problem naming -L NAME) and at the top of the screen', async () => {
    const name = uniqueSocketName();
    const home = tempDir('tower-down-');
    const ctx = testContext({ claudeDir: path.join(home, '.claude'), socketName: name, home });
    const s = await buildSnapshot(ctx);
    expect(s.problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(new RegExp(`^tmux server -L ${name} is not running: `)),
    );
    const header = text(headerLine({ snapshot: s, width: 200, readonly: false, loading: false, muted: false }));
    expect(header).toMatch(new RegExp(`^ tower · tmux server -L ${name} is not running · 0 runs`));
  });

  it('turns a live team unknown when the server is killed under the live store, with the line at the top', async () => {
    tmux = await startTmux();
    const home = tempDir('tower-down-');
    const dir = path.join(home, 'proj');
    fs.mkdirSync(dir);
    const pane = await tmux.newSession('lead', fs.realpathSync(dir));
    writeFile(path.join(home, '.claude', 'teams', 't', 'config.json'), {
      name: 't',
      leadAgentId: 'team-lead',
      members: [{ name: 'team-lead', agentType: 'team-lead', joinedAt: Date.now(), tmuxPaneId: pane, cwd: dir }],
    });
    const ctx = testContext({ claudeDir: path.join(home, '.claude'), socketName: tmux.name, home });
    ctx.config = { ...ctx.config, pollIntervalMs: 100 };
    const store = createLiveStore(ctx);
    try {
      await store.start();
      const lead = () => store.getSnapshot().runs.find((r) => r.id === 'claude-team:t')?.members[0];
      await waitFor(() => lead()?.state === 'alive', 5000, { what: 'the lead alive' });
      await tmux.client.killServer();
      await waitFor(() => lead()?.state === 'unknown', 5000, { what: 'the lead unknown' });
      const header = text(
        headerLine({ snapshot: store.getSnapshot(), width: 200, readonly: false, loading: false, muted: false }),
      );
      expect(header).toContain(`tmux server -L ${tmux.name} is not running`);
      // The capture taken before is shown as what it is: stale.
      const frame = previewFrame({
        member: lead() as Member,
        hasRun: true,
        look: {} as PaneLook,
        lines: [[{ text: 'old text' }]],
        focused: false,
        scroll: 0,
        width: 100,
        height: 6,
      });
      expect(text(frame[0] ?? [])).toContain('stale');
      expect(text(frame[0] ?? [])).not.toContain('live');
    } finally {
      await store.stop();
    }
  });
});
