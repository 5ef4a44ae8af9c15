/**
 * The Claude teams the live store knows, by folder name (what file events name): which of them
 * ended (files quiet for long, no member's pane alive) and the distinct cwds discovery walks up
 * from. Reading goes through the store's readers; watching stays the store's, which acts on the
 * folders each call says came, woke or went to sleep.
 */
import path from 'node:path';
import type { Problem } from '../model/model.js';
import { quietLongEnough } from '../systems/claude-teams/teams.js';
import type { Team } from '../systems/types.js';
import { teamCwds } from './dirty.js';
import type { SourceReaders } from './readers.js';
import { readAllTeams } from './snapshot.js';

/** Teams whose ended side changed: their folders' watches are to be removed (slept) or added (woke). */
export interface EndedChange {
  woke: string[];
  slept: string[];
}

export class TeamBook {
  private byDir = new Map<string, Team>();
  /** Folder names of the teams that ended: not watched, looked at by the sweep. */
  readonly ended = new Set<string>();
  /** The teams' distinct cwds, worked out when the set of teams changes (a poll tick walks up from each). */
  cwds: string[] = [];
  private cwdKey = '';
  /** The teams as one list, kept until a team is read again, comes or goes. */
  private listed: readonly Team[] | null = null;

  constructor(
    private readonly claudeDir: string,
    private readonly readers: SourceReaders,
    private readonly now: () => number,
  ) {}

  /**
   * Reads every team again, but a team that ended is kept as it was when its files have not
   * changed since (two stats instead of reading its config and every task file): on a box of
   * 10,000 ended teams, the periodic sweep then costs ~0.1 s of CPU instead of ~1.5 s.
   * `added`: teams that came and did not end (their task folders are to be watched).
   */
  readAll(live: ReadonlySet<string>): EndedChange & { added: string[]; problems: Problem[] } {
    const problems: Problem[] = [];
    const teams = readAllTeams(this.claudeDir, this.readers, problems, (dirName) => {
      const team = this.byDir.get(dirName);
      return team && this.ended.has(dirName) && this.readers.teamChangedAt(team) === team.changedAt ? team : null;
    });
    const next = new Map<string, Team>();
    for (const t of teams) next.set(path.basename(path.dirname(t.configFile)), t);
    const added = [...next.keys()].filter((dirName) => !this.byDir.has(dirName));
    for (const dirName of this.ended) if (!next.has(dirName)) this.ended.delete(dirName);
    this.byDir = next;
    this.listed = null;
    const change = this.settle(next.keys(), live);
    this.setCwds(teamCwds(next));
    return { ...change, added: added.filter((dirName) => !this.ended.has(dirName)), problems };
  }

  /**
   * Re-reads these teams. `touched`: the names of the teams before and after (the runs that take
   * them in are read again); `setChanged`: a team came, went, was renamed or moved (any run may now
   * take it in); `cwdsMoved`: the cwds discovery walks up from changed.
   */
  reread(
    dirNames: Iterable<string>,
    live: ReadonlySet<string>,
  ): EndedChange & { added: string[]; touched: Set<string>; setChanged: boolean; cwdsMoved: boolean } {
    let setChanged = false;
    const touched = new Set<string>();
    const added: string[] = [];
    const dirs = new Set(dirNames);
    for (const dirName of dirs) {
      const before = this.byDir.get(dirName);
      const after = this.readers.readTeam(this.claudeDir, dirName);
      if (after) this.byDir.set(dirName, after);
      else this.byDir.delete(dirName);
      this.listed = null;
      if (!before && after) added.push(dirName);
      if (!before || !after || before.name !== after.name || before.cwd !== after.cwd) setChanged = true;
      if (before) touched.add(before.name);
      if (after) touched.add(after.name);
    }
    const change = this.settle(dirs, live);
    // Only a team that came, went or moved can change the set of cwds.
    const cwdsMoved = setChanged && this.setCwds(teamCwds(this.byDir));
    return { ...change, added: added.filter((dirName) => !this.ended.has(dirName)), touched, setChanged, cwdsMoved };
  }

  /** The teams by folder name; changed only by reading them. */
  get teams(): ReadonlyMap<string, Team> {
    return this.byDir;
  }

  /**
   * The teams as one list, the same array from one call to the next until a team is read again,
   * comes or goes: the runs read meanwhile share it, and what a reader makes of a list once (tina's
   * team index) serves them all.
   */
  list(): readonly Team[] {
    return (this.listed ??= [...this.byDir.values()]);
  }

  /** Works out again which of these teams ended, against the pane ids alive now (any server). */
  settle(dirNames: Iterable<string>, live: ReadonlySet<string>): EndedChange {
    const woke: string[] = [];
    const slept: string[] = [];
    for (const dirName of dirNames) {
      const team = this.byDir.get(dirName);
      const ended =
        team !== undefined &&
        quietLongEnough(team, this.now()) &&
        !team.members.some((m) => m.paneId !== null && live.has(m.paneId));
      if (ended === this.ended.has(dirName)) continue;
      if (ended) {
        this.ended.add(dirName);
        slept.push(dirName);
      } else {
        this.ended.delete(dirName);
        if (team) woke.push(dirName);
      }
    }
    return { woke, slept };
  }

  /** A team's folders: its config's and its task folder. */
  folders(dirName: string): string[] {
    const team = this.byDir.get(dirName);
    return team ? [path.dirname(team.configFile), team.tasksDir] : [];
  }

  /** Takes a new cwd key; whether it differs from the last. */
  private setCwds(key: string): boolean {
    if (key === this.cwdKey) return false;
    this.cwdKey = key;
    this.cwds = key === '' ? [] : key.split('\n').filter(Boolean);
    return true;
  }
}
