/**
 * The kept assembly (what the live store updates change by change) always equals a fresh one (what
 * `tower status` makes once): the same ids, the same order, whatever came, went or was renamed.
 */
import { describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import type { Team } from '../../src/systems/types.js';
import { Assembly, assembleRuns } from '../../src/store/assemble.js';
import type { AssembleHooks } from '../../src/store/assemble.js';
import { applyEdit } from '../../src/store/delta.js';
import type { SourceRead } from '../../src/store/readers.js';

const STATUSES: Run['status'][] = ['running', 'blocked', 'idle', 'complete', 'waiting', 'unknown'];

function team(dirName: string, name: string, status: Run['status']): Team {
  return {
    name,
    configFile: `/claude/teams/${dirName}/config.json`,
    tasksDir: `/claude/tasks/${dirName}`,
    description: status,
    createdAt: null,
    cwd: null,
    members: [],
    tasks: [],
    problems: [],
  };
}

function read(key: string, name: string, root: string, status: Run['status'], teamNames: string[] = []): SourceRead {
  const run = { ...emptyRun('harness', name, root, `${root}/.harness`), status };
  return { source: { system: 'harness', root, stateDir: `${root}/.harness` }, run, teamNames };
}

const hooks: AssembleHooks = {
  teamRun: (t) => ({
    ...emptyRun('claude-team', t.name, null, t.configFile),
    status: (t.description ?? 'idle') as Run['status'],
  }),
  live: (r) => r,
};

/** A small deterministic generator, so a failure names a seed that repeats it. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const view = (runs: readonly Run[]) => runs.map((r) => `${r.id} ${r.status} ${r.root ?? ''}`);

describe('the kept assembly', () => {
  it('equals a fresh one after every step of 300 random changes, ids and order alike', () => {
    for (const seed of [1, 2, 3]) {
      const rnd = random(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
      // Few names, so ids collide (`x`, `x#2`) and a run may even be named `x#2` itself.
      const names = ['app', 'app#2', 'web', 'api', 'app#3'];
      const reads = new Map<string, SourceRead>();
      const teams = new Map<string, Team>();
      const kept = new Assembly(hooks);
      let lastRuns: readonly Run[] = kept.update([], []);
      for (let step = 0; step < 300; step++) {
        const r = rnd();
        // The teams this step touches, told to the update half the time (the live store knows them).
        const touched: string[] = [];
        if (r < 0.35) {
          const root = `/p/${pick(['a', 'b', 'c', 'd', 'e', 'f'])}`;
          reads.set(root, read(root, pick(names), root, pick(STATUSES), rnd() < 0.3 ? [pick(['t1', 't2', 't3'])] : []));
        } else if (r < 0.5 && reads.size > 0) {
          reads.delete(pick([...reads.keys()]));
        } else if (r < 0.85) {
          const dir = pick(['t1', 't2', 't3', 't4', 't5', 't6']);
          teams.set(dir, team(dir, pick([dir, ...names]), pick(STATUSES)));
          touched.push(dir);
        } else if (teams.size > 0) {
          const dir = pick([...teams.keys()]);
          teams.delete(dir);
          touched.push(dir);
        }
        const prev = lastRuns;
        const got = kept.update(
          reads,
          teams,
          rnd() < 0.1,
          rnd() < 0.5 ? { dirNames: touched, get: (d) => teams.get(d) } : null,
        );
        lastRuns = got;
        const want = assembleRuns(reads, teams, hooks);
        // What the update says changed makes the new list from the old one.
        if (kept.change) {
          expect(kept.change.base).toBe(prev);
          expect(view(applyEdit(prev, kept.change.edit, (x) => x))).toEqual(view(got));
          expect(applyEdit(prev, kept.change.edit, (x) => x).every((x, i) => x === got[i])).toBe(true);
          expect(kept.change.added.every((x) => !prev.includes(x) && got.includes(x))).toBe(true);
          expect(kept.change.removed.every((x) => prev.includes(x) && !got.includes(x))).toBe(true);
          expect(kept.change.added.length + prev.length - kept.change.removed.length).toBe(got.length);
        }
        expect(view(got), `seed ${seed}, step ${step}`).toEqual(view(want));
        expect(new Set(got.map((x) => x.id)).size).toBe(got.length);
        expect([...kept.origins.keys()].sort()).toEqual(got.map((x) => x.id).sort());
      }
    }
  });

  it('hands back the same array and the same run objects when nothing changed', () => {
    const reads = new Map([['/p/a', read('/p/a', 'app', '/p/a', 'running')]]);
    const teams = new Map([['t1', team('t1', 't1', 'idle')]]);
    const kept = new Assembly(hooks);
    const first = kept.update(reads, teams);
    expect(kept.update(reads, teams)).toBe(first);
    teams.set('t2', team('t2', 't2', 'blocked'));
    const second = kept.update(reads, teams);
    expect(second).not.toBe(first);
    expect(second.map((r) => r.id)).toEqual(['claude-team:t2', 'harness:app', 'claude-team:t1']);
    expect(second[1]).toBe(first[0]);
    expect(second[2]).toBe(first[1]);
  });

  it('reads a team once per team object: an unchanged team is not made into a run again', () => {
    let made = 0;
    const counting: AssembleHooks = { ...hooks, teamRun: (t) => (made++, hooks.teamRun(t)) };
    const teams = new Map(Array.from({ length: 50 }, (_, i) => [`t${i}`, team(`t${i}`, `t${i}`, 'complete')] as const));
    const kept = new Assembly(counting);
    kept.update([], teams);
    expect(made).toBe(50);
    teams.set('t7', team('t7', 't7', 'running'));
    const runs = kept.update([], teams);
    expect(made).toBe(51);
    expect(runs[0]?.id).toBe('claude-team:t7');
  });
});
