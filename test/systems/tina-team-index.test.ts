/**
 * tinaTeams walks a list of teams for the first runs that read it, then looks teams up in an index of
 * the list; either way, what it picks must be what a plain walk over every team of the box picks. The
 * walk below is that specification, written out: for each team, its name against the feature, then
 * the session team test, then the older phase names inside the root; the session teams then go
 * through pickSessionTeams as they are.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Member } from '../../src/model/model.js';
import { comparePhases, phaseOfName } from '../../src/systems/tina/phases.js';
import { isInside, isSessionTeam, pickSessionTeams, tinaTeams } from '../../src/systems/tina/teams.js';
import type { SessionTeamPick } from '../../src/systems/tina/teams.js';
import type { Team } from '../../src/systems/types.js';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function byWalk(
  feature: string | null,
  root: string,
  teams: readonly Team[],
  paneSessions?: ReadonlyMap<string, string>,
): SessionTeamPick {
  const orchestration: Team[] = [];
  const sessions: Team[] = [];
  const phases: { n: string; team: Team }[] = [];
  const older: { n: string; team: Team }[] = [];
  const phaseName = feature === null ? null : new RegExp(`^${escapeRegExp(feature)}-phase-(\\d+(?:[.-]\\d+)*)$`);
  for (const team of teams) {
    const name = team.name;
    if (feature !== null && name.startsWith(`${feature}-`)) {
      if (name === `${feature}-orchestration`) {
        orchestration.push(team);
        continue;
      }
      const m = phaseName?.exec(name);
      if (m) {
        phases.push({ n: phaseOfName(m[1] ?? ''), team });
        continue;
      }
    }
    if (isSessionTeam(team)) {
      sessions.push(team);
      continue;
    }
    const old = /^phase-(\d+(?:\.\d+)*)-execution$/.exec(name);
    if ((old !== null || (feature !== null && name === feature)) && team.cwd !== null && isInside(team.cwd, root))
      older.push({ n: old ? (old[1] ?? '') : '', team });
  }
  const byN = (a: { n: string }, b: { n: string }): number =>
    a.n === b.n ? 0 : a.n === '' ? -1 : b.n === '' ? 1 : comparePhases(a.n, b.n);
  const named = [...orchestration, ...phases.sort(byN).map((p) => p.team), ...older.sort(byN).map((p) => p.team)];
  const picked = pickSessionTeams(feature, root, sessions, named, paneSessions);
  return { teams: [...named, ...picked.teams], problems: picked.problems };
}

const ROOT = '/srv/work/auth';
/** More runs over one list than walk it (src/systems/tina/teams.ts walks a list 4 times, then indexes it). */
const RUNS_TO_INDEX = 5;
const FEATURES = ['auth', 'auth-v2', 'a.b', 'phase', 'session-x'];
const NAMES = [
  'auth-orchestration',
  'auth-phase-1',
  'auth-phase-2',
  'auth-phase-2.5',
  'auth-phase-2-5',
  'auth-phase-10',
  'auth-phase-x',
  'auth-v2-orchestration',
  'auth-v2-phase-1',
  'auth-phase-1-phase-2',
  'a.b-phase-1',
  'axb-phase-1',
  'auth',
  'a.b',
  'phase-1-execution',
  'phase-2.1-execution',
  'phase-phase-1',
  'session-x',
  'session-x-orchestration',
  'session-x-phase-3',
  'session-3f1c9a52',
  'session-b84e7d30',
  'session-bad name',
  'other',
  'other-orchestration',
];
const CWDS = [null, ROOT, `${ROOT}/sub`, '/srv/work/other', 'relative/auth', `${ROOT}/../auth`];
const PANES = ['%1', '%2', '%3', '%4'];
const SESSIONS = ['tina-auth-phase-1', 'tina-auth-orchestration', 'tina-a_b-phase-2', 'main', 'tina-session-x-phase-1'];

const memberArb = fc.record({ paneId: fc.option(fc.constantFrom(...PANES), { nil: null }), lead: fc.boolean() });
const teamArb = fc.record({
  name: fc.constantFrom(...NAMES),
  folder: fc.constantFrom('same', 'session-0a1b2c'),
  cwd: fc.constantFrom(...CWDS),
  createdAt: fc.option(fc.constantFrom('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z'), { nil: null }),
  changedAt: fc.option(fc.nat({ max: 3 }), { nil: null }),
  members: fc.array(memberArb, { maxLength: 3 }),
});

type TeamSpec = typeof teamArb extends fc.Arbitrary<infer T> ? T : never;

function team(t: TeamSpec, i: number): Team {
  const folder = t.folder === 'same' ? `${t.name}-${i}` : `${t.folder}${i}`;
  const members: Member[] = t.members.map((m, j) => ({
    name: `m${j}`,
    role: m.lead ? 'team-lead' : 'worker',
    model: '',
    paneId: m.paneId,
    state: 'unknown',
    lead: m.lead,
  }));
  return {
    name: t.name,
    configFile: path.join('/home/u/.claude/teams', folder, 'config.json'),
    tasksDir: path.join('/home/u/.claude/tasks', folder),
    description: null,
    createdAt: t.createdAt,
    changedAt: t.changedAt,
    cwd: t.cwd,
    members,
    tasks: [],
    problems: [],
  };
}

describe('tinaTeams', () => {
  it('picks what a walk over every team picks, in the same order, with the same problems', () => {
    fc.assert(
      fc.property(
        fc.array(teamArb, { maxLength: 14 }),
        fc.option(fc.constantFrom(...FEATURES), { nil: null }),
        fc.array(fc.tuple(fc.constantFrom(...PANES), fc.constantFrom(...SESSIONS)), { maxLength: 4 }),
        (specs, feature, panes) => {
          const teams = specs.map(team);
          const paneSessions = new Map(panes);
          const want = byWalk(feature, ROOT, teams, paneSessions);
          // The first runs over a list walk it, the later ones use its index: both are checked.
          for (let run = 0; run < RUNS_TO_INDEX + 2; run++) {
            const got = tinaTeams(feature, ROOT, teams, paneSessions);
            expect(got.teams.map((t) => t.configFile)).toEqual(want.teams.map((t) => t.configFile));
            expect(got.problems).toEqual(want.problems);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('indexes a list again when it has grown since', () => {
    const spec: Omit<TeamSpec, 'name'> = { folder: 'same', cwd: ROOT, createdAt: null, changedAt: null, members: [] };
    const teams = [team({ ...spec, name: 'auth-phase-1' }, 0)];
    for (let run = 0; run < RUNS_TO_INDEX + 1; run++)
      expect(tinaTeams('auth', ROOT, teams).teams.map((t) => t.name)).toEqual(['auth-phase-1']);
    teams.push(team({ ...spec, name: 'auth-orchestration' }, 1));
    expect(tinaTeams('auth', ROOT, teams).teams.map((t) => t.name)).toEqual(['auth-orchestration', 'auth-phase-1']);
  });

  it('finds a feature whose name holds characters a pattern would read as operators', () => {
    const teams = [
      team({ name: 'a.b-phase-1', folder: 'same', cwd: ROOT, createdAt: null, changedAt: null, members: [] }, 0),
      team({ name: 'axb-phase-1', folder: 'same', cwd: ROOT, createdAt: null, changedAt: null, members: [] }, 1),
    ];
    expect(tinaTeams('a.b', ROOT, teams).teams.map((t) => t.name)).toEqual(['a.b-phase-1']);
  });
});
