/**
 * What the live store watches, and what a changed path means. Watching is limited to state
 * directories: under a project root only the marker dirs (and the dirs leading to them, so a marker
 * created later is seen) and the extra files a system names; under the Claude dir only team configs,
 * the task folders of known teams and the systems' root registries. Everything else is ignored
 * before chokidar descends into it.
 */
import path from 'node:path';
import { SYSTEM_MODULES, stateDirMarkers } from '../systems/registry.js';
import { isInside } from './discover.js';

/** How deep below a state directory files are read (tina `phase-N/status.json`, harness `logs/run.log`). */
export const STATE_DIR_DEPTH = 2;

/** The chokidar depth that covers `<root>/.claude/tina/phase-N/<file>`. */
export const WATCH_DEPTH = 4;

const MARKER_PARTS = [...new Set(stateDirMarkers().map((m) => m.dir))].map((d) => d.split('/'));

/** Files outside the state directories that a system reads too, with the markers of its state dirs. */
const EXTRA_FILES = SYSTEM_MODULES.flatMap((m) =>
  m.watchFiles.map((f) => ({ parts: f.split('/'), markers: m.markers })),
);

/** The Claude dir folders that list project roots. */
const REGISTRY_DIRS = new Set(SYSTEM_MODULES.flatMap((m) => (m.rootRegistry ? [m.rootRegistry.dir] : [])));

/** Folders inside state directories that hold history, never read. */
const SKIPPED_DIRS = new Set(['.archive', 'node_modules', '.git']);

/** What a changed path asks for. */
export type WatchTarget =
  | { kind: 'team'; dirName: string }
  | { kind: 'all-teams' }
  | { kind: 'source'; stateDir: string; rediscover: boolean }
  | { kind: 'rediscover' }
  | { kind: 'none' };

function startsWith(parts: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= parts.length && prefix.every((p, i) => parts[i] === p);
}

/** The mutable set of watched places, asked by chokidar (`ignored`) and by the store (`classify`). */
export class WatchScope {
  private roots: string[] = [];
  private stateDirs: string[] = [];

  constructor(
    readonly claudeDir: string,
    /** Folder names of the teams the store knows (their task folders are watched). */
    private readonly knownTeam: (dirName: string) => boolean,
    /**
     * Folder names of teams that ended: their folders get no watch of their own (on a box of
     * 10,000 teams, 20,000 inotify watches and most of the start time); their coming and going
     * still shows in the watch on `teams/`, and the periodic sweep looks at their files.
     */
    private readonly endedTeam: (dirName: string) => boolean = () => false,
  ) {}

  /** Replaces the watched roots and the known state directories. */
  setRoots(roots: readonly string[], stateDirs: readonly string[]): void {
    this.roots = [...roots];
    // Longest first, so a nested state dir wins over its parent.
    this.stateDirs = [...stateDirs].sort((a, b) => b.length - a.length);
  }

  /**
   * chokidar's `ignored`: true for every path outside the state directories, and for the folders of teams
   * that ended.
   */
  ignored = (p: string): boolean => {
    if (isInside(p, this.claudeDir)) return this.ignoredInClaudeDir(p, false);
    return !this.roots.some((root) => isInside(p, root) && this.wantedInRoot(p, root));
  };

  /** Whether an event on `p` (from the watch of its folder) means nothing: a team that ended coming or going does. */
  ignoredEvent = (p: string): boolean => {
    if (isInside(p, this.claudeDir)) return this.ignoredInClaudeDir(p, true);
    return this.ignored(p);
  };

  private ignoredInClaudeDir(p: string, event: boolean): boolean {
    const parts = path.relative(this.claudeDir, p).split(path.sep).filter(Boolean);
    const [top, name, file, ...rest] = parts;
    if (top === undefined) return false;
    if (rest.length > 0) return true;
    if ((top === 'teams' || top === 'tasks') && name !== undefined && this.endedTeam(name))
      return !event || file !== undefined;
    if (top === 'teams') return file !== undefined && file !== 'config.json';
    if (top === 'tasks') {
      if (name === undefined) return false;
      if (!this.knownTeam(name)) return true;
      return file !== undefined && (!file.endsWith('.json') || file.startsWith('.'));
    }
    if (REGISTRY_DIRS.has(top)) return file !== undefined;
    return true;
  }

  private wantedInRoot(p: string, root: string): boolean {
    const parts = path.relative(root, p).split(path.sep).filter(Boolean);
    if (parts.length === 0) return true;
    if (EXTRA_FILES.some((extra) => startsWith(extra.parts, parts))) return true; // the file or a dir leading to it
    return MARKER_PARTS.some((marker) => {
      if (startsWith(marker, parts)) return true; // the marker or a dir leading to it
      if (!startsWith(parts, marker)) return false;
      const below = parts.slice(marker.length);
      return below.length <= STATE_DIR_DEPTH && !below.some((b) => SKIPPED_DIRS.has(b));
    });
  }

  /**
   * The state directory whose run reads `p`, when `p` is one of the extra files a system names (or a folder
   * leading to one).
   */
  private extraFileSource(p: string): string | null {
    for (const root of this.roots) {
      if (!isInside(p, root)) continue;
      const parts = path.relative(root, p).split(path.sep).filter(Boolean);
      for (const extra of EXTRA_FILES) {
        // The file, or a folder leading to it: a file written right after its folder was made can
        // change before the folder is watched, so the folder's arrival re-reads the run too.
        if (parts.length === 0 || !startsWith(extra.parts, parts)) continue;
        const dir = extra.markers.map((m) => path.join(root, m)).find((d) => this.stateDirs.includes(d));
        if (dir) return dir;
      }
    }
    return null;
  }

  /** What a changed path means for the store. */
  classify(p: string): WatchTarget {
    if (isInside(p, this.claudeDir)) {
      const [top, name] = path.relative(this.claudeDir, p).split(path.sep).filter(Boolean);
      if (top === 'teams' || top === 'tasks')
        return name === undefined ? { kind: 'all-teams' } : { kind: 'team', dirName: name };
      if (top !== undefined && REGISTRY_DIRS.has(top)) return { kind: 'rediscover' };
      if (top === undefined) return { kind: 'all-teams' };
      return { kind: 'none' };
    }
    const stateDir = this.stateDirs.find((d) => isInside(p, d));
    if (stateDir) return { kind: 'source', stateDir, rediscover: p === stateDir };
    const extra = this.extraFileSource(p);
    if (extra) return { kind: 'source', stateDir: extra, rediscover: false };
    // A marker (or the dir leading to one) appeared or went away.
    if (this.roots.some((root) => isInside(p, root))) return { kind: 'rediscover' };
    return { kind: 'none' };
  }
}
