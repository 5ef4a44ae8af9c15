/**
 * Which rule decides a permission request, and why. Deny wins: a request any deny rule matches is
 * denied (a command is denied when any of its parts is). Then ask: a request an ask rule matches is
 * asked as before. Then allow: a request is allowed when allow rules match it whole, and a command
 * only when every part is matched by an allow rule (a part no rule names is asked) and nothing in it
 * runs unseen. Nothing matched: no decision, asked as before. Rules in dry run are matched too: what
 * they would do is said beside what the active rules do.
 */
import picomatch from 'picomatch';
import type { Rule, RulesFile } from './schema.js';
import { PLACE_FIELDS } from './schema.js';
import { commandParts } from './shell.js';
import { insideFolders, reachedPath, realish, ruleFolders } from './paths.js';
import type { CommandParts } from './shell.js';

/** Where a request comes from: each field null when unknown (a rule naming it does not match). */
export interface RequestPlace {
  box: string | null;
  system: string | null;
  run: string | null;
  team: string | null;
  member: string | null;
  role: string | null;
  agent: string | null;
  /** The run's root folder, for `paths: root`. */
  root: string | null;
}

/** A permission request as rules read it: the tool and its whole, parsed input. */
export interface RuleRequest {
  tool: string;
  input: Record<string, unknown>;
  /** The agent's working folder (Claude Code's `cwd`), against which relative paths are read. */
  cwd: string | null;
  place: RequestPlace;
}

/** A rule ready to match: its globs made once. */
export interface CompiledRule {
  rule: Rule;
  /** Its name, or `rule N` (N from 1, in file order). */
  name: string;
  dryRun: boolean;
  place: [keyof RequestPlace, (v: string) => boolean][];
  tool: ((v: string) => boolean) | null;
  command: ((v: string) => boolean) | null;
  host: ((v: string) => boolean) | null;
  /** The folders of `paths`, resolved when the file was read (`root` per request). */
  folders: { root: boolean; folders: string[] } | null;
}

export type Decision = 'allow' | 'deny' | 'ask';

/** What rules make of a request. */
export interface Verdict {
  /** What tower does: allow or deny by rule, or null (asked as before: by an ask rule, or no rule). */
  acts: 'allow' | 'deny' | null;
  /** The rules' decision, and the rule that gave it (null: no rule matched). */
  decision: Decision | null;
  rule: CompiledRule | null;
  /** Why, in words. */
  why: string;
  /** What the rules in dry run would have done instead, or null when they change nothing. */
  wouldBe: { decision: 'allow' | 'deny'; rule: CompiledRule; why: string } | null;
}

/** A matcher for any of the globs: their regular expressions, made once (picomatch's own matcher costs ~µs a call). */
function glob(patterns: string[], nocase = false): (v: string) => boolean {
  const res = patterns.map((p) => picomatch.makeRe(p, { bash: true, dot: true, nocase, noextglob: true }));
  return (v) => res.some((re) => re.test(v));
}

/** The rules of a file, compiled in file order. */
export function compileRules(file: RulesFile): CompiledRule[] {
  return file.rules.map((rule, i) => ({
    rule,
    name: rule.name ?? `rule ${i + 1}`,
    dryRun: file.dryRun || rule.dryRun,
    place: PLACE_FIELDS.flatMap((f) =>
      rule[f] ? [[f, glob(rule[f])] as [keyof RequestPlace, (v: string) => boolean]] : [],
    ),
    tool: rule.tool ? glob(rule.tool) : null,
    command: rule.command ? glob(rule.command) : null,
    host: rule.host ? glob(rule.host, true) : null,
    folders: rule.paths ? ruleFolders(rule.paths) : null,
  }));
}

/** What rules read of a request, worked out once per request, not once per rule. */
interface Facts {
  /** The paths it touches, as the agent reaches them (null: it names none; a null entry: one that cannot be told). */
  paths: (string | null)[] | null;
  realRoot: string | null;
  /** Its URL's host, lower case, or null. */
  host: string | null;
  command: CommandParts | null;
}

function factsOf(r: RuleRequest): Facts {
  const named = ['file_path', 'notebook_path', 'path'].flatMap((k) =>
    typeof r.input[k] === 'string' ? [r.input[k] as string] : [],
  );
  let host: string | null = null;
  if (typeof r.input.url === 'string')
    try {
      host = new URL(r.input.url).hostname.toLowerCase() || null;
    } catch {
      host = null;
    }
  return {
    paths: named.length > 0 ? named.map((p) => reachedPath(p, r.cwd)) : null,
    realRoot: r.place.root === null ? null : realish(r.place.root),
    host,
    command: typeof r.input.command === 'string' ? commandParts(r.input.command) : null,
  };
}

/** Whether a rule matches the request apart from its command. */
function matchesWhole(c: CompiledRule, r: RuleRequest, f: Facts): boolean {
  // The tool first: it tells most rules from a request at once.
  if (c.tool && !c.tool(r.tool)) return false;
  for (const [field, m] of c.place) {
    const v = r.place[field];
    if (v === null || !m(v)) return false;
  }
  if (c.folders) {
    if (!f.paths || !f.paths.every((p) => p !== null && insideFolders(p, c.folders!, f.realRoot))) return false;
  }
  if (c.host && (f.host === null || !c.host(f.host))) return false;
  return true;
}

/** The decision of one set of rules (active only, or all). */
function decide(
  rules: CompiledRule[],
  r: RuleRequest,
  f: Facts,
): { decision: Decision; rule: CompiledRule; why: string } | null {
  const cmd = f.command;
  const whole = rules.filter((c) => matchesWhole(c, r, f));
  /** The rules that match a part (a rule with no command field matches every part). */
  const partRule = (d: Decision, part: string) =>
    whole.find((c) => c.rule.decision === d && (c.command === null || c.command(part)));
  const wholeRule = (d: Decision) => whole.find((c) => c.rule.decision === d && c.command === null);
  for (const d of ['deny', 'ask'] as const) {
    if (cmd === null) {
      const c = whole.find((x) => x.rule.decision === d && x.command === null);
      if (c) return { decision: d, rule: c, why: `${c.name} ${d === 'deny' ? 'denies' : 'asks for'} it` };
      continue;
    }
    for (const part of [...cmd.parts, r.input.command as string]) {
      const c = partRule(d, part);
      if (c) return { decision: d, rule: c, why: `${c.name} ${d === 'deny' ? 'denies' : 'asks for'} "${part}"` };
    }
  }
  if (cmd === null) {
    const c = wholeRule('allow');
    return c ? { decision: 'allow', rule: c, why: `${c.name} allows it` } : null;
  }
  // A command is allowed only when every part is, and nothing in it runs unseen.
  if (cmd.opaque) return null;
  const by = cmd.parts.map((p) => partRule('allow', p));
  if (by.some((c) => c === undefined)) return null;
  const names = [...new Set(by.map((c) => c!.name))];
  return { decision: 'allow', rule: by[0]!, why: `every part is allowed (${names.join(', ')})` };
}

/** Why no rule decides a request (for `tower rules test`). */
export function whyUndecided(rules: CompiledRule[], r: RuleRequest, f: Facts = factsOf(r)): string {
  const cmd = f.command;
  if (cmd === null) return 'no rule matches it: it is asked as before';
  const whole = rules.filter((c) => c.rule.decision === 'allow' && matchesWhole(c, r, f));
  if (cmd.opaque && whole.length > 0) return `no rule may allow it: ${cmd.opaque}; it is asked as before`;
  const unmatched = cmd.parts.filter((p) => !whole.some((c) => c.command === null || c.command(p)));
  return unmatched.length > 0
    ? `no rule allows ${unmatched.map((p) => `"${p}"`).join(', ')}: it is asked as before`
    : 'no rule matches it: it is asked as before';
}

/** What the rules make of a request: the active rules act, those in dry run are said beside. */
export function judge(rules: CompiledRule[], r: RuleRequest): Verdict {
  const f = factsOf(r);
  const active = rules.filter((c) => !c.dryRun);
  const real = decide(active, r, f);
  const all = active.length === rules.length ? real : decide(rules, r, f);
  const acts = real && real.decision !== 'ask' ? real.decision : null;
  const wouldBe =
    all && all.rule.dryRun && all.decision !== 'ask' && all.decision !== acts
      ? { decision: all.decision, rule: all.rule, why: all.why }
      : null;
  return {
    acts,
    decision: real?.decision ?? null,
    rule: real?.rule ?? null,
    why: real?.why ?? whyUndecided(active, r, f),
    wouldBe,
  };
}
