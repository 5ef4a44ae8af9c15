/**
 * A teammate's permission request, drawn in its lead's pane. Claude Code 2.1.332 forwards a
 * teammate's request to the lead, whose pane shows the dialog with the title `Bash command · from
 * the worker agent`, while the teammate's own pane says `Waiting for team lead approval` and no
 * PermissionRequest hook fires in it. So the teammate is the member asking: it gets the dialog as
 * its prompt, with the member whose pane draws it (`drawnIn`), where `tower answer --member worker`
 * types. Pure.
 */
import type { Member } from '../model/model.js';

/** `Bash command · from the worker agent` → `worker` (names are `[A-Za-z0-9][A-Za-z0-9_-]*`). */
const FROM_AGENT = /·\s*from the ([A-Za-z0-9][A-Za-z0-9_-]{0,63}) agent\s*$/;

/** The teammate a dialog's title says the request comes from, or null. */
export function requestedBy(subject: readonly string[]): string | null {
  return FROM_AGENT.exec(subject[0] ?? '')?.[1] ?? null;
}

/**
 * The members with each forwarded request laid on the teammate it comes from (same team as the
 * member drawing it; a name two members share in that team is left alone). Members that change are
 * copied; the list is returned as it came when nothing is forwarded.
 */
export function withForwardedRequests(members: Member[]): Member[] {
  let out: Member[] | null = null;
  for (const drawer of members) {
    const p = drawer.prompt;
    if (!p || p.drawnIn !== undefined) continue;
    const name = requestedBy(p.subject);
    if (name === null || name === drawer.name) continue;
    const matches = members.filter((m) => m.name === name && m !== drawer && m.team === drawer.team);
    if (matches.length !== 1) continue;
    const i = members.indexOf(matches[0]!);
    out ??= [...members];
    // Named so that only the drawer fits, in a run of several teams too (actions/member-name.ts).
    const teams = new Set(members.map((m) => m.team));
    const drawnIn = teams.size > 1 && drawer.team !== undefined ? `${drawer.team}/${drawer.name}` : drawer.name;
    out[i] = Object.assign({}, out[i], {
      prompt: { ...p, drawnIn },
      activity: 'waiting' as const,
      activityCue: 'question',
      activitySince: matches[0]!.activitySince ?? drawer.activitySince ?? null,
      activitySource: matches[0]!.activitySource ?? drawer.activitySource ?? null,
    });
  }
  return out ?? members;
}
