/**
 * Held permission requests answered by rule. Each look lists the requests tower's hook holds now,
 * ties each to the member whose pane and server it names (one tied to no member is left to the
 * operator), reads its input whole from the request file and lets the rules judge it once. A rule's
 * allow or deny is an answer action like the operator's (the same plan, the same hook, an audit
 * line and an activity row), bound to that request and that input; a rule in dry run records what
 * it would have done. Requests an agent CLI's own server asked (opencode's `permission.asked`) are
 * judged too, whole and structured as the server gave them, and answered through that server by
 * their id. Requests read from a screen are never judged: only what the hook holds or a server asked.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Member, Run } from '../model/model.js';
import { stateHome } from '../config/config.js';
import { appendAudit, currentUser } from '../kit/audit.js';
import type { RuleAnswer } from '../kit/detail.js';
import type { ActionEnv, ActionOutcome } from '../kit/types.js';
import { fromServer, heldRequests } from '../store/held-requests.js';
import type { HeldRequest } from '../store/held-requests.js';
import { readHeldInput } from '../store/held-input.js';
import { judge } from '../rules/match.js';
import type { RuleRequest, Verdict } from '../rules/match.js';
import type { LoadedRules } from '../rules/load.js';
import { sanitizeLine } from '../text/sanitize.js';
import { serverSocket } from './pane-client.js';
import { planAction, runAction } from './index.js';
import { fromAgentServer } from './answer-server.js';

/** One decision by rule, as the screen and `tower watch` show it. */
export interface RuleRecord {
  time: string;
  said: 'allowed' | 'denied' | 'would allow' | 'would deny';
  rule: string;
  why: string;
  request: string;
  run: string;
  member: string;
  box: string;
  tool: string;
  /** The line the request's dialog shows (its command, its path). */
  subject: string;
  input: string;
  /** The answer's outcome (null for a dry run, which answers nothing). */
  outcome: ActionOutcome['status'] | null;
  message: string;
}

/** How many requests rules answered (or would have), since tower started. */
export interface RuleTally {
  allowed: number;
  denied: number;
  wouldAllow: number;
  wouldDeny: number;
}

/** Request ids judged already are remembered up to this many (the oldest go). */
const MAX_JUDGED = 5000;

/** The request file's JSON, read into what rules match on; null when it is not whole and structured. */
export function ruleInputOf(r: HeldRequest): Pick<RuleRequest, 'tool' | 'input' | 'cwd'> | null {
  if (r.unreadable !== null || r.tool === null || r.whole === null) return null;
  let text: string;
  try {
    text = fs.readFileSync(r.file, 'utf8');
  } catch {
    return null;
  }
  const json = text.slice(text.indexOf('\n') + 1).trimEnd();
  const shown = readHeldInput(json);
  // The rule reads exactly what the screen would show: the same file, parsed the same way.
  if (!('tool' in shown) || shown.whole !== r.whole || shown.tool !== r.tool) return null;
  const raw = JSON.parse(json) as { tool_input: Record<string, unknown>; cwd?: unknown };
  return { tool: r.tool, input: raw.tool_input, cwd: typeof raw.cwd === 'string' ? raw.cwd : null };
}

/** Where a member's request comes from, as rules name it. */
export function placeOf(run: Run, m: Member, box: string): RuleRequest['place'] {
  return {
    box,
    system: run.system,
    run: run.id,
    team: m.team ?? run.name,
    member: m.name,
    role: m.role,
    agent: m.agent && m.agent !== 'unknown' ? m.agent : 'claude-code',
    root: run.root,
  };
}

/** One request as a rule judges and records it: held by the hook, or asked by a CLI's server. */
interface Judged {
  id: string;
  tool: string;
  /** Its input whole, one line of JSON: what an answer by rule is bound to. */
  whole: string;
  /** The line its dialog shows. */
  subject: string;
}

/** The requests a CLI's own server asks of this box's members now, each with the one member it is for. */
function serverRequests(
  runs: readonly Run[],
): { run: Run; member: Member; request: Judged; input: Record<string, unknown> }[] {
  const out = [];
  for (const run of runs)
    for (const member of run.members) {
      const p = member.prompt;
      // Only a prompt a server gave (its signature and structured request say so), never a screen's dialog.
      if (member.state !== 'alive' || !fromAgentServer(p) || !p?.request) continue;
      let input: unknown;
      try {
        input = JSON.parse(p.request.whole);
      } catch {
        continue;
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) continue;
      const { id, tool, whole } = p.request;
      const subject = p.subject.filter((l) => !l.startsWith('# ')).join(' ');
      out.push({ run, member, request: { id, tool, whole, subject }, input: input as Record<string, unknown> });
    }
  return out;
}

/** Answers the held requests of this box's members by rule. */
export class RuleAnswerer {
  readonly tally: RuleTally = { allowed: 0, denied: 0, wouldAllow: 0, wouldDeny: 0 };
  /** The newest request a rule denied, per member (`run/member`). */
  readonly denials = new Map<string, RuleRecord>();
  private judged = new Set<string>();
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly env: ActionEnv,
    private readonly rules: () => LoadedRules,
    private readonly onRecord: (r: RuleRecord) => void = () => {},
    /** This box's name, as rules' `box` matches it. */
    readonly box: string = os.hostname(),
  ) {}

  /** Resolves once the look under way (if any) is done. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Looks now, or once more right after the look under way. Never throws. */
  look(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.lookOnce().catch(() => {});
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  private async lookOnce(): Promise<void> {
    const { rules, problem } = this.rules();
    if (problem !== null || rules.length === 0) return;
    const ctx = this.env.ctx;
    const runs = this.env.snapshot().runs.filter((r) => !r.host && !r.stale);
    for (const s of serverRequests(runs)) {
      if (this.judged.has(s.request.id)) continue;
      this.remember(s.request.id);
      const verdict = judge(rules, {
        tool: s.request.tool,
        input: s.input,
        cwd: s.run.root,
        place: placeOf(s.run, s.member, this.box),
      });
      await this.act(verdict, s.request, s.run, s.member);
    }
    const held = heldRequests(stateHome(ctx.env));
    if (held.length === 0) return;
    for (const r of held) {
      if (this.judged.has(r.id)) continue;
      const owner = ownerOf(runs, r, (m) => serverSocket(ctx, m.tmuxServer));
      // A request tied to no member, or to more than one, is the operator's to answer.
      if (!owner) continue;
      const input = ruleInputOf(r);
      if (!input) continue;
      this.remember(r.id);
      const verdict = judge(rules, { ...input, place: placeOf(owner.run, owner.member, this.box) });
      const judged = { id: r.id, tool: r.tool!, whole: r.whole!, subject: r.subject ?? '' };
      await this.act(verdict, judged, owner.run, owner.member);
    }
  }

  private remember(id: string): void {
    this.judged.add(id);
    if (this.judged.size > MAX_JUDGED) this.judged.delete(this.judged.values().next().value!);
  }

  private async act(v: Verdict, r: Judged, run: Run, m: Member): Promise<void> {
    const base = {
      time: new Date().toISOString(),
      request: r.id,
      run: run.id,
      member: m.name,
      box: this.box,
      tool: r.tool,
      subject: r.subject,
      input: r.whole,
    };
    if (v.wouldBe) {
      const said = v.wouldBe.decision === 'allow' ? 'would allow' : 'would deny';
      const message =
        `${said} ${m.name}'s ${r.tool}: ${r.subject} by ${v.wouldBe.rule.name} (dry ` +
        `run: ${v.wouldBe.why}); asked as before`;
      const rec: RuleRecord = { ...base, said, rule: v.wouldBe.rule.name, why: v.wouldBe.why, outcome: null, message };
      if (said === 'would allow') this.tally.wouldAllow++;
      else this.tally.wouldDeny++;
      this.env.activity?.push({ action: 'rule', runId: run.id, target: m.paneId, status: 'done', message });
      await appendAudit(
        {
          time: rec.time,
          user: currentUser(ctxEnv(this.env)),
          host: os.hostname(),
          action: 'rule',
          run: run.id,
          target: m.paneId,
          outcome: 'done',
          duration: 0,
          message: sanitizeLine(message),
          rule: { rule: rec.rule, request: r.id, input: r.whole, box: this.box, member: m.name },
        },
        ctxEnv(this.env),
      );
      this.onRecord(rec);
    }
    if (!v.acts || !v.rule) return;
    const byRule: RuleAnswer = { rule: v.rule.name, request: r.id, input: r.whole, box: this.box, member: m.name };
    const plan = planAction(this.env, {
      kind: 'answer',
      run: run.id,
      members: [m.name],
      choice: v.acts === 'allow' ? 'y' : 'n',
      byRule,
    });
    const outcome = await runAction(this.env, plan);
    const said = v.acts === 'allow' ? 'allowed' : 'denied';
    const rec: RuleRecord = {
      ...base,
      said,
      rule: v.rule.name,
      why: v.why,
      outcome: outcome.status,
      message: outcome.message,
    };
    // A dry run of the whole command line (--dry-run) answered nothing: it is not counted.
    if (outcome.status === 'done' && !this.env.ctx.dryRun) {
      if (said === 'allowed') this.tally.allowed++;
      else {
        this.tally.denied++;
        this.denials.set(`${run.id}/${m.name}`, rec);
      }
    }
    this.onRecord(rec);
  }
}

function ctxEnv(env: ActionEnv): NodeJS.ProcessEnv {
  return env.ctx.env;
}

/** The one live member whose pane and server the request names, or null. */
export function ownerOf(
  runs: readonly Run[],
  r: HeldRequest,
  socketOf: (m: Member) => string,
): { run: Run; member: Member } | null {
  const found: { run: Run; member: Member }[] = [];
  for (const run of runs)
    for (const member of run.members)
      if (member.paneId === r.paneId && member.state === 'alive' && fromServer(r, socketOf(member)))
        found.push({ run, member });
  return found.length === 1 ? found[0]! : null;
}

/** The tally in words for the header: `12 allowed by rule · 1 denied by rule`, or null. */
export function tallyWords(t: RuleTally): string | null {
  const parts = [
    t.allowed > 0 ? `${t.allowed} allowed by rule` : null,
    t.denied > 0 ? `${t.denied} denied by rule` : null,
    t.wouldAllow + t.wouldDeny > 0 ? `${t.wouldAllow + t.wouldDeny} by rule in dry run` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}
