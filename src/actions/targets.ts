/**
 * Who an action acts on: the lead whose pane gets the checkpoint commands, and the teammates of the
 * run's working team. A tina run merges several teams; its working team is the current phase's.
 */
import type { Member, Run } from '../model/model.js';
import type { CycleWay } from '../systems/module.js';
import { runsOf, systemOf } from '../systems/registry.js';
import type { LeadTarget, TerminateTarget } from '../kit/detail.js';
import { onServer } from './pane-client.js';
import { membersFitting } from './member-name.js';
import { paneRefusal } from '../store/pane-refusal.js';

export { paneRefusal };

/** The team names of the run's working team; [] when the run has none named (or its system no cycle). */
export function workingTeamNames(run: Run): string[] {
  return systemOf(run.system).cycle?.workingTeams(run) ?? [];
}

/** Whether only the working team's members count as the run's teammates (a run that merges several teams). */
function workingTeamOnly(run: Run): boolean {
  return systemOf(run.system).cycle?.workingTeams(run) !== null;
}

function inTeams(m: Member, teams: readonly string[]): boolean {
  return m.team !== undefined && teams.includes(m.team);
}

/** Whether a member has a tmux pane of its own (not in-process, not unnamed). */
export function hasPane(m: Member): m is Member & { paneId: string } {
  return typeof m.paneId === 'string' && m.paneId.startsWith('%');
}

/**
 * The lead to type into, or why there is none: the lead of the working team (tina: the current phase
 * team), in its pane, else in its session's active pane when the team file names no pane; else any
 * live lead pane.
 */
export function findLead(run: Run): { lead: LeadTarget; cycle: CycleWay } | { refusal: string } {
  const cycle = systemOf(run.system).cycle;
  if (!cycle)
    return {
      refusal: `${run.id} is a ${run.system} run: the checkpoint cycle applies to ${runsOf((m) => m.cycle !== null)}`,
    };
  const lead = findLeadOf(run, cycle);
  return 'refusal' in lead ? lead : { lead: lead.lead, cycle };
}

function findLeadOf(run: Run, cycle: CycleWay): { lead: LeadTarget } | { refusal: string } {
  const teams = cycle.workingTeams(run) ?? [];
  const phaseLead = run.members.find((m) => m.lead && inTeams(m, teams));
  const session = cycle.leadSession(run);
  if (phaseLead) {
    if (hasPane(phaseLead)) {
      const no = paneRefusal(phaseLead);
      if (no !== null) return { refusal: `lead ${phaseLead.name}: ${no}` };
      if (phaseLead.state === 'dead') return { refusal: `lead ${phaseLead.name}'s pane ${phaseLead.paneId} is gone` };
      return { lead: paneTarget(phaseLead) };
    }
    if (session) return { lead: sessionTarget(phaseLead.name, session) };
  }
  const live = run.members.find((m) => m.lead && hasPane(m) && m.state !== 'dead');
  if (live && hasPane(live)) {
    const no = paneRefusal(live);
    if (no !== null) return { refusal: `lead ${live.name}: ${no}` };
    return { lead: paneTarget(live) };
  }
  if (session) return { lead: sessionTarget(phaseLead?.name ?? 'team-lead', session) };
  const dead = run.members.find((m) => m.lead && hasPane(m));
  if (dead) return { refusal: `lead ${dead.name}'s pane ${dead.paneId ?? ''} is gone` };
  const inProcess = run.members.find((m) => m.lead);
  if (inProcess) return { refusal: `lead ${inProcess.name} has no tmux pane to type into` };
  return { refusal: `${run.id} has no lead with a tmux pane` };
}

function paneTarget(m: Member & { paneId: string }): LeadTarget {
  const server = m.tmuxServer ?? null;
  return {
    name: m.name,
    target: m.paneId,
    label: `${m.name} in ${m.paneId}${onServer(server)}`,
    server,
    ...(m.paneProcess ? { process: m.paneProcess } : {}),
    ...(m.agent && m.agent !== 'unknown' ? { agent: m.agent } : {}),
  };
}

function sessionTarget(name: string, session: string): LeadTarget {
  return { name, target: `=${session}:`, label: `${name} in session ${session}` };
}

function toTarget(m: Member & { paneId: string }): TerminateTarget {
  return {
    name: m.name,
    paneId: m.paneId,
    team: m.team ?? null,
    lead: m.lead,
    server: m.tmuxServer ?? null,
    ...(m.paneProcess ? { process: m.paneProcess } : {}),
  };
}

/** A pane's address across servers: its id on tower's server, `<server>/<id>` on a swarm server. */
function address(m: Member & { paneId: string }): string {
  return m.tmuxServer ? `${m.tmuxServer}/${m.paneId}` : m.paneId;
}

/** The panes of every lead of the run: never terminated unless a lead is named. */
function leadPanes(run: Run): Set<string> {
  return new Set(
    run.members
      .filter(hasPane)
      .filter((m) => m.lead)
      .map(address),
  );
}

/**
 * The live teammates of the working team, each with a pane: tina's current phase team, else every
 * non-lead member. Never a lead of any team, nor a pane a lead sits in.
 */
export function workingTeammates(run: Run): TerminateTarget[] {
  const teams = workingTeamNames(run);
  const only = workingTeamOnly(run);
  const leads = leadPanes(run);
  const seen = new Set<string>();
  const out: TerminateTarget[] = [];
  for (const m of run.members) {
    if (
      m.lead ||
      !hasPane(m) ||
      m.state !== 'alive' ||
      m.tmuxServerUnknown !== undefined ||
      leads.has(address(m)) ||
      seen.has(address(m))
    )
      continue;
    if (only && !inTeams(m, teams)) continue;
    seen.add(address(m));
    out.push(toTarget(m));
  }
  return out;
}

/**
 * The members named by the operator, resolved to panes. A name may match in several teams of a tina
 * run: the current phase team's member wins. Unknown names are a refusal; paneless or dead ones are skipped.
 */
export function namedMembers(
  run: Run,
  names: readonly string[],
): { targets: TerminateTarget[]; skipped: string[] } | { refusal: string } {
  const teams = workingTeamNames(run);
  const targets: TerminateTarget[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const all = membersFitting(run, name);
    if (all.length === 0) {
      const known = [...new Set(run.members.map((m) => m.name))].join(', ') || 'none';
      return { refusal: `${run.id} has no member named "${name}" (members: ${known})` };
    }
    const inPhase = all.filter((m) => inTeams(m, teams));
    const chosen = inPhase.length > 0 ? inPhase : all;
    const withPane = chosen.filter(hasPane);
    if (withPane.length === 0) {
      skipped.push(
        `${name}: has no tmux pane (${chosen[0]?.state === 'in-process' ? 'runs in-process' : 'no pane id'})`,
      );
      continue;
    }
    for (const m of withPane) {
      const no = paneRefusal(m);
      if (no !== null) return { refusal: `${name}: ${no}` };
      if (seen.has(address(m))) continue;
      seen.add(address(m));
      if (m.state === 'dead') skipped.push(`${name} (${m.paneId}${onServer(m.tmuxServer)}): already gone`);
      else targets.push(toTarget(m));
    }
  }
  return { targets, skipped };
}
