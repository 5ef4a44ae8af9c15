/** Runs of another box as this tower shows them: ids `<host>/<id>`, `host` set, `stale` when the box is away. */
import type { HostState, Member, Problem, Run, Snapshot } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';

/** The id a run of `host` has here. */
export function hostRunId(host: string, id: string): string {
  return `${host}/${id}`;
}

/** Splits `<host>/<id>` when `host` is a known host; null for a run of this box. */
export function splitHostRunId(id: string, hosts: readonly string[]): { host: string; id: string } | null {
  const at = id.indexOf('/');
  if (at <= 0) return null;
  const host = id.slice(0, at);
  return hosts.includes(host) ? { host, id: id.slice(at + 1) } : null;
}

/**
 * Maps a host's runs, keeping each mapped object as long as its source object and the staleness
 * are the same (the screen re-renders only what changed).
 */
export class HostRunMapper {
  private cache = new WeakMap<Run, Run>();
  private stale = false;
  private unknown = false;

  constructor(readonly host: string) {}

  /** `activityUnknown`: the box sends no activity (an older tower): its members read unknown. */
  map(runs: readonly Run[], stale: boolean, activityUnknown = false): Run[] {
    if (stale !== this.stale || activityUnknown !== this.unknown) {
      this.cache = new WeakMap();
      this.stale = stale;
      this.unknown = activityUnknown;
    }
    return runs.map((r) => {
      let m = this.cache.get(r);
      if (!m) {
        m = { ...r, id: hostRunId(this.host, r.id), host: this.host, ...(stale ? { stale: true } : {}) };
        if (activityUnknown) m.members = m.members.map(unknownActivity);
        this.cache.set(r, m);
      }
      return m;
    });
  }
}

/** A member of a box that sends no activity: unknown, from nothing. */
function unknownActivity(m: Member): Member {
  return m.activity === undefined ? { ...m, activity: 'unknown', activitySince: null, activitySource: null } : m;
}

/** A host that is not ok, as one line of the problems list. */
export function hostProblem(h: HostState): Problem | null {
  if (h.state === 'ok') return null;
  const since = h.since ? ` since ${h.since.slice(11, 19)}` : '';
  const what = h.state === 'connecting' ? `connecting${since}` : `unreachable${since}`;
  return { file: null, message: `host ${h.name}: ${what}${h.error ? ` — ${sanitizeLine(h.error)}` : ''}` };
}

/** Problems of a host's snapshot, named by the host. */
export function hostProblems(host: string, snapshot: Snapshot | null): Problem[] {
  return (snapshot?.problems ?? []).map((p) => ({ file: p.file, message: `${host}: ${p.message}` }));
}
