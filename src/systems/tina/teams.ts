/** Which Claude Code teams make up a tina run: tina names them after the feature and the phase. */
import path from 'node:path';
import type { Team } from '../types.js';
import { comparePhases, phaseOfName } from './phases.js';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `dir` is `root` or lies inside it. */
export function isInside(dir: string, root: string): boolean {
  if (!path.isAbsolute(dir)) return false;
  const rel = path.relative(path.resolve(root), path.resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}


/** tina's older phase teams, named without the feature. */
const OLDER_PHASE = /^phase-(\d+(?:\.\d+)*)-execution$/;

/**
 * The teams of a tina run, in display order: `<feature>-orchestration`, then `<feature>-phase-<N>` by N,
 * then the older `phase-<N>-execution` teams (and a team named after the feature itself), which carry no
 * feature in their name and so count only when their members work inside the run's root.
 */
export function tinaTeams(feature: string | null, root: string, teams: Team[]): Team[] {
  const orchestration: Team[] = [];
  const phases: { n: string; team: Team }[] = [];
  const older: { n: string; team: Team }[] = [];
  const ownPrefix = feature === null ? null : `${feature}-`;
  const orchestrationName = `${feature}-orchestration`;
  // Remediation teams are `<feature>-phase-2.5` (`-2-5` where only the folder name is known).
  const phaseName = feature === null ? null : new RegExp(`^${escapeRegExp(feature)}-phase-(\\d+(?:[.-]\\d+)*)$`);
  // Every run looks at every team of the machine: names are tested cheapest first.
  for (const team of teams) {
    const name = team.name;
    if (ownPrefix !== null && name.startsWith(ownPrefix)) {
      if (name === orchestrationName) {
        orchestration.push(team);
        continue;
      }
      const m = phaseName?.exec(name);
      if (m) {
        phases.push({ n: phaseOfName(m[1] ?? ''), team });
        continue;
      }
    }
    // The name first: it rules out most teams of a busy machine without resolving any path.
    const old = name.startsWith('phase-') ? OLDER_PHASE.exec(name) : null;
    const named = old !== null || (feature !== null && name === feature);
    if (!named || team.cwd === null || !isInside(team.cwd, root)) continue;
    older.push({ n: old ? (old[1] ?? '') : '', team });
  }
  const byN = (a: { n: string }, b: { n: string }): number => (a.n === b.n ? 0 : a.n === '' ? -1 : b.n === '' ? 1 : comparePhases(a.n, b.n));
  return [...orchestration, ...phases.sort(byN).map((p) => p.team), ...older.sort(byN).map((p) => p.team)];
}
