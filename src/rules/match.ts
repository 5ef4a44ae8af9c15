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
import { insideAny } from './paths.js';

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

const glob = (patterns: string[], nocase = false) =>
  picomatch(patterns, { bash: true, dot: true, nocase, noextglob: true });

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
  }));
}

/** The request's paths (Claude Code's file tools), or null when its input names none. */
function pathsOf(r: RuleRequest): string[] | null {
  const found = ['file_path', 'notebook_path', 'path'].flatMap((k) =>
    typeof r.input[k] === 'string' ? [r.input[k] as string] : [],
  );
  return found.length > 0 ? found : null;
}

/** The host of the request's URL (lower case), or null. */
function hostOf(r: RuleRequest): string | null {
  if (typeof r.input.url !== 'string') return null;
  try {
    return new URL(r.input.url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** Whether a rule matches the request apart from its command. */
function matchesWhole(c: CompiledRule, r: RuleRequest): boolean {
  for (const [field, m] of c.place) {
    const v = r.place[field];
    if (v === null || !m(v)) return false;
  }
  if (c.tool && !c.tool(r.tool)) return false;
  if (c.rule.paths) {
    const paths = pathsOf(r);
    if (!paths || !paths.every((p) => insideAny(p, c.rule.paths!, r.cwd, r.place.root))) return false;
  }
  if (c.host) {
    const host = hostOf(r);
    if (host === null || !c.host(host)) return false;
  }
  return true;
}

/** The decision of one set of rules (active only, or all). */
function decide(rules: CompiledRule[], r: RuleRequest): { decision: Decision; rule: CompiledRule; why: string } | null {
  const cmd = typeof r.input.command === 'string' ? commandParts(r.input.command) : null;
  const whole = rules.filter((c) => matchesWhole(c, r));
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
export function whyUndecided(rules: CompiledRule[], r: RuleRequest): string {
  if (typeof r.input.command !== 'string') return 'no rule matches it: it is asked as before';
  const cmd = commandParts(r.input.command);
  if (cmd.opaque && rules.some((c) => c.rule.decision === 'allow' && matchesWhole(c, r)))
    return `no rule may allow it: ${cmd.opaque}; it is asked as before`;
  const whole = rules.filter((c) => c.rule.decision === 'allow' && matchesWhole(c, r));
  const unmatched = cmd.parts.filter((p) => !whole.some((c) => c.command === null || c.command(p)));
  return unmatched.length > 0
    ? `no rule allows ${unmatched.map((p) => `"${p}"`).join(', ')}: it is asked as before`
    : 'no rule matches it: it is asked as before';
}

/** What the rules make of a request: the active rules act, those in dry run are said beside. */
export function judge(rules: CompiledRule[], r: RuleRequest): Verdict {
  const active = rules.filter((c) => !c.dryRun);
  const real = decide(active, r);
  const all = active.length === rules.length ? real : decide(rules, r);
  const acts = real && real.decision !== 'ask' ? real.decision : null;
  const wouldBe =
    all && all.rule.dryRun && all.decision !== 'ask' && all.decision !== acts
      ? { decision: all.decision, rule: all.rule, why: all.why }
      : null;
  return {
    acts,
    decision: real?.decision ?? null,
    rule: real?.rule ?? null,
    why: real?.why ?? whyUndecided(active, r),
    wouldBe,
  };
}
