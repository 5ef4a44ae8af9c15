/** What a rule means, in words: `tower rules check` says it of every rule of the file. */
import type { CompiledRule } from './match.js';
import { PLACE_FIELDS } from './schema.js';

const list = (v: string[]): string => v.map((x) => `"${x}"`).join(' or ');

/**
 * One rule's meaning: `rule 2 (tests): allow Bash when every part of the command matches "npm test *", for
 * members of runs "tina:*"`.
 */
export function ruleMeaning(c: CompiledRule): string {
  const r = c.rule;
  const verb = { allow: 'allow', deny: 'deny', ask: 'ask the operator for' }[r.decision];
  const what = r.tool ? `${list(r.tool)} requests` : 'every request';
  const conds: string[] = [];
  if (r.command)
    conds.push(
      r.decision === 'allow'
        ? `each part of its command matching ${list(r.command)} (a command is allowed only when every ` +
            `part is allowed by some rule)`
        : `any part of its command matching ${list(r.command)}`,
    );
  if (r.paths)
    conds.push(
      `every path it touches inside ${r.paths.map((p) => (p === 'root' ? "the run's root" : `"${p}"`)).join(' or ')}`,
    );
  if (r.host) conds.push(`its URL's host matching ${list(r.host)}`);
  for (const f of PLACE_FIELDS) if (r[f]) conds.push(`${f} ${list(r[f])}`);
  const when = conds.length > 0 ? ` with ${conds.join(', ')}` : '';
  const dry = c.dryRun ? ' — dry run: records what it would do, and the request is asked as before' : '';
  return `${c.name}: ${verb} ${what}${when}${dry}`;
}
