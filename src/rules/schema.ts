/**
 * The rules file: permission rules that answer held requests for the operator. Each rule says
 * `allow`, `deny` or `ask` and matches on any of the request's place (box, system, run, team,
 * member, role, agent CLI) and its input (tool, command, paths, a URL's host). A rule with no
 * field but its decision matches every request. Parsed with zod: a file that does not parse
 * answers nothing.
 */
import { z } from 'zod';

/** One glob or several (any may match). */
const globs = z
  .union([z.string().min(1).max(500), z.array(z.string().min(1).max(500)).min(1).max(100)])
  .transform((v) => (typeof v === 'string' ? [v] : v));

/** A rule of the file. */
export const RuleSchema = z
  .object({
    /** How the rule is named in audit lines, on the screen and by `tower rules test` (default: rule N). */
    name: z.string().min(1).max(80).optional(),
    decision: z.enum(['allow', 'deny', 'ask']),
    /** Record "would allow" / "would deny" and ask as before, so a rule can be watched before it acts. */
    dryRun: z.boolean().default(false),
    box: globs.optional(),
    system: globs.optional(),
    run: globs.optional(),
    team: globs.optional(),
    member: globs.optional(),
    role: globs.optional(),
    /** The agent CLI (`claude-code`). */
    agent: globs.optional(),
    /** The tool asked about (`Bash`, `Edit`, `WebFetch`, `mcp__*`). */
    tool: globs.optional(),
    /** Globs over each part of a shell command: `*` is any run of characters. */
    command: globs.optional(),
    /** Folders every path of the request must lie inside: `root` (the run's root) or an absolute folder. */
    paths: globs.optional(),
    /** Globs over the host of the request's URL (`docs.python.org`, `*.github.com`). */
    host: globs.optional(),
  })
  .strict();

export const RulesFileSchema = z
  .object({
    /** Every rule of the file in dry run. */
    dryRun: z.boolean().default(false),
    rules: z.array(RuleSchema).max(10_000),
  })
  .strict();

export type Rule = z.infer<typeof RuleSchema>;
export type RulesFile = z.infer<typeof RulesFileSchema>;
/** The fields of a rule that say where a request comes from. */
export const PLACE_FIELDS = ['box', 'system', 'run', 'team', 'member', 'role', 'agent'] as const;
