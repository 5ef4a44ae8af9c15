/**
 * A Claude Code team's `config.json`: its members with their panes, the lead, the lead's process
 * and session. Everything in it is untrusted: a value of the wrong shape is a problem of the team,
 * never passed on (a pane id that is not one never reaches tmux as a target).
 */
import path from 'node:path';
import type { Member, MemberState, Problem } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { isObject, oneLine, toIso } from '../../files/values.js';
import type { Team } from '../types.js';

/** A tmux pane id as tmux prints it; anything else is not passed on to tmux as a target. */
const PANE_ID = /^%\d+$/;

/** Parses a team's config.json; members get state 'in-process' or 'unknown' (liveness comes later). */
export function parseTeamConfig(
  json: unknown,
  file: string,
  tasksDir: string,
): { team: Team | null; problems: Problem[] } {
  const problems: Problem[] = [];
  if (!isObject(json)) return { team: null, problems: [{ file, message: 'team config is not a JSON object' }] };
  const dirName = path.basename(path.dirname(file));
  if (!['name', 'members', 'leadAgentId'].some((k) => k in json)) {
    problems.push({
      file,
      message: 'unrecognised shape: no name, members or leadAgentId (not a Claude Code team config?)',
    });
  }
  const name = oneLine(json.name) || sanitizeLine(dirName);
  const leadId = oneLine(json.leadAgentId);
  const rawMembers = Array.isArray(json.members) ? json.members : [];
  if (json.members !== undefined && !Array.isArray(json.members)) {
    problems.push({ file, message: 'team config "members" is not a list' });
  }

  const members: Member[] = [];
  let cwd: string | null = null;
  let leadFound = false;
  rawMembers.forEach((raw, i) => {
    if (!isObject(raw)) {
      problems.push({ file, message: `member ${i + 1} is not an object` });
      return;
    }
    const agentId = oneLine(raw.agentId);
    const memberName = oneLine(raw.name) || agentId || `member-${i + 1}`;
    const isLead = leadId !== '' && (memberName === leadId || agentId === leadId);
    leadFound ||= isLead;
    const memberCwd = typeof raw.cwd === 'string' && raw.cwd !== '' ? sanitizeLine(raw.cwd) : null;
    if (cwd === null) cwd = memberCwd;
    const member: Member = {
      name: memberName,
      role: oneLine(raw.agentType) || 'member',
      model: oneLine(raw.model),
      paneId: paneIdOf(raw.tmuxPaneId, file, memberName, problems),
      state: stateOf(raw),
      lead: isLead,
      team: name,
    };
    // The evidence a pane is checked against (store/pane-evidence.ts).
    if (typeof raw.joinedAt === 'number' && Number.isFinite(raw.joinedAt) && raw.joinedAt > 0)
      member.joinedAt = raw.joinedAt;
    if (memberCwd !== null) member.cwd = memberCwd;
    const claimed = leadProcessOf(raw.leadProcess);
    if (claimed) member.leadProcess = claimed;
    members.push(member);
  });
  // Older team files name no lead id that matches; the agent type still says who leads.
  if (!leadFound) for (const m of members) m.lead = m.role === 'team-lead';
  // The lead's process as the team file records it (a key of the team; a member's own wins).
  const teamProcess = leadProcessOf(json.leadProcess);
  if (teamProcess) for (const m of members) if (m.lead && !m.leadProcess) m.leadProcess = teamProcess;
  // The lead's session: its hook events name it (store/lead-seat.ts).
  const leadSession = sessionIdOf(json.leadSessionId);
  if (leadSession !== null) for (const m of members) if (m.lead) m.sessionId = leadSession;

  return {
    team: {
      name,
      configFile: file,
      tasksDir,
      description: oneLine(json.description) || null,
      createdAt: toIso(json.createdAt),
      cwd,
      leadSessionId: leadSession,
      saysActive: rawMembers.some((raw) => isObject(raw) && raw.isActive === true),
      members,
      tasks: [],
      problems: [],
    },
    problems,
  };
}

/**
 * `leadProcess: {pid, pidSpace, claimedAt, procStart}` as Claude Code records its lead's process
 * (procStart: clock ticks since boot, as /proc/<pid>/stat's field 22). Null when any part is not
 * of that shape: a half-known process is no evidence.
 */
function leadProcessOf(v: unknown): Member['leadProcess'] | null {
  if (!isObject(v)) return null;
  const { pid, procStart, pidSpace } = v;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
  const start = typeof procStart === 'string' && /^\d{1,15}$/.test(procStart) ? Number(procStart) : procStart;
  if (!whole(pid) || !whole(start)) return null;
  const space = typeof pidSpace === 'string' || typeof pidSpace === 'number' ? sanitizeLine(String(pidSpace)) : null;
  return { pid, procStart: start, pidSpace: space };
}

/** A session id as Claude Code writes one (a UUID); anything else names no transcript. */
function sessionIdOf(v: unknown): string | null {
  return typeof v === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(v) ? v : null;
}

/** `tmuxPaneId` values that name no pane and are no problem: an in-process member, a lead running in-process. */
const NO_PANE = new Set(['', 'in-process', 'leader']);

function paneIdOf(raw: unknown, file: string, member: string, problems: Problem[]): string | null {
  if (typeof raw !== 'string' || NO_PANE.has(raw)) return null;
  if (PANE_ID.test(raw)) return raw;
  problems.push({ file, message: `member ${member}: tmuxPaneId "${sanitizeLine(raw).slice(0, 40)}" is not a pane id` });
  return null;
}

function stateOf(raw: Record<string, unknown>): MemberState {
  const backend = typeof raw.backendType === 'string' ? raw.backendType.toLowerCase() : '';
  // `isActive` is not read: Claude Code leaves it true on panes long dead; tmux says what lives.
  return raw.tmuxPaneId === 'in-process' || raw.tmuxPaneId === 'leader' || backend === 'in-process'
    ? 'in-process'
    : 'unknown';
}
