/**
 * A Claude team without tasks is not idle while its members work. Newer models run without the task
 * tools unless asked (CLAUDE_CODE_ENABLE_TODO_TOOLS, https://github.com/pingdotgg/t3code/discussions/22921)
 * and completed tasks are deleted, so a session team (https://code.claude.com/docs/en/agent-teams,
 * v2.1.178: `teams/session-<id>/`) often has none: its status comes from what its members' panes show.
 * The panes are real, on a private tmux server; the snapshot goes through the same overlay as
 * `tower status` and the live screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { snapshotWithActivity } from '../../src/store/this-box.js';
import { readSnapshot } from '../../src/store/snapshot.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { perTest } from '../helpers/per-test.js';
import type { TmuxFixture } from '../helpers/tmux.js';

const made = perTest();

/** A session team whose lead sits in `pane` (keys as Claude Code writes them; no task folder). */
function sessionTeam(claude: string, id: string, cwd: string, pane: string): string {
  const folder = `session-${id}`;
  const file = path.join(claude, 'teams', folder, 'config.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify({
      name: folder,
      description: '',
      createdAt: Date.now(),
      leadAgentId: `team-lead@${folder}`,
      leadSessionId: id,
      members: [
        {
          agentId: `team-lead@${folder}`,
          name: 'team-lead',
          agentType: 'team-lead',
          model: 'claude-opus-4-5-20251101',
          joinedAt: Date.now(),
          tmuxPaneId: pane,
          cwd,
          subscriptions: [],
        },
      ],
    }),
  );
  return folder;
}

async function shows(t: TmuxFixture, pane: string, text: string): Promise<void> {
  const until = Date.now() + 15_000;
  while (!(await t.client.capturePane(pane)).includes(text)) {
    if (Date.now() > until) throw new Error(`pane ${pane} never showed ${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statusOf = (s: Snapshot, name: string) => s.runs.find((r) => r.name === name)?.status;

describe('the status of a team without tasks', () => {
  it(
    'is running while a member works, waiting while one waits, idle while none does',
    { timeout: 60_000 },
    async () => {
      const t = await made.tmux();
      const base = made.dir('tower-team-activity-');
      const claude = path.join(base, 'claude');
      const cwd = path.join(base, 'project');
      fs.mkdirSync(cwd, { recursive: true });
      // Claude Code's status line while a turn runs; its input prompt once the turn is over.
      fs.writeFileSync(
        path.join(base, 'working.sh'),
        `printf '%s\\n' 'Reading src/auth.ts' '✻ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)'; exec sleep 100000\n`,
      );
      fs.writeFileSync(
        path.join(base, 'waiting.sh'),
        `printf '%s\\n' 'Done: the login form is in.' '> '; exec sleep 100000\n`,
      );
      const working = await t.newSession('working', cwd, `sh ${path.join(base, 'working.sh')}`);
      const waiting = await t.newSession('waiting', cwd, `sh ${path.join(base, 'waiting.sh')}`);
      const silent = await t.newSession('silent', cwd, 'sleep 100000');
      const busy = sessionTeam(claude, '0c6f3b1e-2a4d-4e8f-9b7a-5d1c3e2f4a60', cwd, working);
      const paused = sessionTeam(claude, '7a2e9d14-8b3c-4f5a-a6e1-2c9d0b7f3e85', cwd, waiting);
      const quiet = sessionTeam(claude, 'e5d4c3b2-a190-4876-9f5e-4d3c2b1a0f99', cwd, silent);
      await shows(t, working, 'esc to interrupt');
      await shows(t, waiting, 'login form is in');

      const panes = await t.client.listPanes();
      const settings = { ...DEFAULT_READ_SETTINGS, now: Date.now() };
      const read = readSnapshot({ roots: [], claudeDir: claude, panes, settings, home: base, discover: false });
      // Read alone, a team with no tasks can only be called idle.
      for (const name of [busy, paused, quiet]) expect(statusOf(read, name)).toBe('idle');
      expect(read.runs.every((r) => r.members.every((m) => m.state === 'alive'))).toBe(true);

      const seen = await snapshotWithActivity(t.client, read);
      expect(statusOf(seen, busy)).toBe('running');
      expect(statusOf(seen, paused)).toBe('waiting');
      expect(statusOf(seen, quiet)).toBe('idle');
    },
  );
});
