/**
 * The member a name given by the operator means. A run that merges teams (tina: the orchestrator's
 * and each phase's) has two `team-lead`s, so every member can be named so that only it fits: by its
 * pane id (`%1`), or qualified by its team (`checkout-flow-phase-2/team-lead`, or the end of the team
 * name after a dash: `phase-2/team-lead`). A bare name that fits several members means the one in
 * the run's working team (the team the checkpoint cycle acts on) when that leaves one; otherwise the
 * name is refused, naming each member it fits.
 */
import type { Member, Run } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import { systemOf } from '../systems/registry.js';

/** The team names of the run's working team (as targets.ts says it; kept here so neither imports the other). */
function workingTeamNames(run: Run): string[] {
  return systemOf(run.system).cycle?.workingTeams(run) ?? [];
}

/** How a member is named so that only it fits: `team/name (%N)`, or `name (%N)` in a run of one team. */
export function qualifiedName(run: Run, m: Member): string {
  const teams = new Set(run.members.map((x) => x.team));
  const name = teams.size > 1 && m.team !== undefined ? `${m.team}/${m.name}` : m.name;
  return m.paneId ? `${name} (${m.paneId})` : name;
}

/** Whether `team` is named by `q`: the whole team name, or its end after a dash (`phase-2`). */
function teamFits(team: string | undefined, q: string): boolean {
  return team !== undefined && (team === q || team.endsWith(`-${q}`));
}

/** Every member `name` fits, before the working team is preferred. */
export function membersFitting(run: Run, name: string): Member[] {
  if (/^%\d+$/.test(name)) return run.members.filter((m) => m.paneId === name);
  const slash = name.lastIndexOf('/');
  if (slash > 0) {
    const team = name.slice(0, slash);
    const bare = name.slice(slash + 1);
    return run.members.filter((m) => m.name === bare && teamFits(m.team, team));
  }
  return run.members.filter((m) => m.name === name);
}

/** The one member `name` means, or a refusal that says why none or which several. */
export function memberNamed(run: Run, name: string): Member | { refusal: string } {
  const all = membersFitting(run, name);
  const shown = sanitizeLine(name);
  if (all.length === 0) {
    const known = run.members.map((m) => qualifiedName(run, m)).join(', ') || 'none';
    return { refusal: `${run.id} has no member "${shown}" (members: ${known})` };
  }
  if (all.length === 1) return all[0]!;
  const teams = workingTeamNames(run);
  const working = all.filter((m) => m.team !== undefined && teams.includes(m.team));
  if (working.length === 1) return working[0]!;
  return {
    refusal:
      `"${shown}" fits ${all.length} members of ${run.id}: ` +
      `${all.map((m) => qualifiedName(run, m)).join(', ')}; name one as TEAM/NAME or by its pane id`,
  };
}

/**
 * The run's lead by default: the working team's (tina: the current phase's, as the checkpoint cycle), else
 * the first.
 */
export function runLead(run: Run): Member | undefined {
  const teams = workingTeamNames(run);
  return (
    run.members.find((m) => m.lead && m.team !== undefined && teams.includes(m.team)) ?? run.members.find((m) => m.lead)
  );
}
