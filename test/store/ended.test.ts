/**
 * Teams that ended (files unchanged for two days, no member's pane alive): still listed, last, with
 * `ended: true`; cheap after the first read (no watch of their own, not read again while their
 * files stay as they were); alive again the moment a member's pane is, or their files change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { createLiveStore } from '../../src/store/live-store.js';
import { buildSnapshot } from '../../src/store/snapshot.js';
import { defaultReaders } from '../../src/store/readers.js';
import type { SourceReaders } from '../../src/store/readers.js';
import { ENDED_AFTER_MS } from '../../src/systems/claude-teams/teams.js';
import { buildTeamsBox, touchTask } from '../helpers/teams-box.js';
import type { TeamsBox } from '../helpers/teams-box.js';
import { testContext } from '../helpers/context.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let box: TeamsBox | null = null;
let tmux: TmuxFixture | null = null;
afterEach(async () => {
  await tmux?.kill();
  tmux = null;
  box?.remove();
  box = null;
});

const run = (s: Snapshot, name: string) => s.runs.find((r) => r.name === name);

/** Readers that count how often each team is read. */
function counting(): { readers: SourceReaders; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const readers: SourceReaders = {
    ...defaultReaders,
    readTeam: (claudeDir, dirName) => {
      reads.set(dirName, (reads.get(dirName) ?? 0) + 1);
      return defaultReaders.readTeam(claudeDir, dirName);
    },
    readTeams: (claudeDir, reuse) =>
      defaultReaders.readTeams(claudeDir, (dirName) => {
        const kept = reuse?.(dirName) ?? null;
        if (!kept) reads.set(dirName, (reads.get(dirName) ?? 0) + 1);
        return kept;
      }),
  };
  return { readers, reads };
}

describe('teams that ended', () => {
  it('are listed last with ended: true by tower status, and never need you', async () => {
    box = buildTeamsBox({ teams: 6, active: 2 });
    const s = await buildSnapshot(testContext({ claudeDir: box.claudeDir, socketName: uniqueSocketName() }));
    expect(s.runs.map((r) => [r.name, r.ended === true])).toEqual([
      ['team-00001', false],
      ['team-00002', false],
      ['team-00003', true],
      ['team-00004', true],
      ['team-00005', true],
      ['team-00006', true],
    ]);
    // A team of old files reads no transcript: it offers no checkpoint cycle.
    expect(run(s, 'team-00004')?.gates).toEqual([]);
  });

  it('has not ended while a member pane is alive, however old its files', async () => {
    box = buildTeamsBox({ teams: 3, active: 1 });
    tmux = await startTmux();
    // The pane works where team-00003 works (projects[3]): a pane elsewhere is another agent's.
    const pane = await tmux.newSession('lead', box.projects[3] as string);
    const config = path.join(box.claudeDir, 'teams', 'team-00003', 'config.json');
    const json = JSON.parse(fs.readFileSync(config, 'utf8')) as { members: { tmuxPaneId: string; joinedAt: number }[] };
    (json.members[0] as { tmuxPaneId: string }).tmuxPaneId = pane;
    // It joined after its pane started (a pane started after its member joined is another agent's).
    (json.members[0] as { joinedAt: number }).joinedAt = Date.now();
    const old = fs.statSync(config).mtime;
    fs.writeFileSync(config, JSON.stringify(json));
    fs.utimesSync(config, old, old);
    const s = await buildSnapshot(testContext({ claudeDir: box.claudeDir, socketName: tmux.name }));
    expect(run(s, 'team-00003')?.ended).toBe(false);
    expect(run(s, 'team-00002')?.ended).toBe(true);
  });

  it('in the live store: not read again by the periodic sweep while their files stay, read again once they change', async () => {
    box = buildTeamsBox({ teams: 8, active: 2 });
    const { readers, reads } = counting();
    const ctx = testContext({ claudeDir: box.claudeDir, socketName: uniqueSocketName() });
    let now = Date.now();
    const store = createLiveStore(ctx, { readers, now: () => now });
    try {
      await store.start();
      expect(store.getSnapshot().runs.filter((r) => r.ended)).toHaveLength(6);
      const before = new Map(reads);
      // A full sweep (what the store does every two minutes): the working teams are read again, the ended ones not.
      now += 1000;
      store.refresh();
      await waitFor(() => (reads.get('team-00001') ?? 0) > (before.get('team-00001') ?? 0));
      expect(reads.get('team-00005')).toBe(before.get('team-00005'));

      // An ended team's task changes (written aside and renamed: its folder's time moves): the sweep reads it, and it works again.
      touchTask(box, 'team-00005', 'picked up again');
      now += 1000;
      store.refresh();
      await waitFor(
        () => run(store.getSnapshot(), 'team-00005')?.tasks.some((t) => t.subject === 'picked up again') === true,
      );
      expect(run(store.getSnapshot(), 'team-00005')?.ended).toBeFalsy();
      expect(store.getSnapshot().runs.filter((r) => r.ended)).toHaveLength(5);
    } finally {
      await store.stop();
    }
  });

  it('in the live store: a team whose files fall quiet is folded at the next sweep', async () => {
    box = buildTeamsBox({ teams: 3, active: 3 });
    const ctx = testContext({ claudeDir: box.claudeDir, socketName: uniqueSocketName() });
    let now = Date.now();
    const store = createLiveStore(ctx, { now: () => now });
    try {
      await store.start();
      expect(store.getSnapshot().runs.some((r) => r.ended)).toBe(false);
      now += ENDED_AFTER_MS + 60_000;
      store.refresh();
      await waitFor(() => store.getSnapshot().runs.every((r) => r.ended === true));
    } finally {
      await store.stop();
    }
  });
});
