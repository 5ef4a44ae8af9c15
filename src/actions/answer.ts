/**
 * Planning an answer to an agent without attaching: the option of the permission prompt or question
 * its pane shows (`tower answer`), or a line typed to it (`tower send`). A plan names exactly the
 * member, the dialog it saw and the calls the run makes: through the CLI's server (answer-server.ts),
 * through tower's hook (answer-hook.ts), or the CLI's own keys (answer-keys.ts). The runs, which
 * capture the pane again right before typing, load only when an action runs (answer-run.ts,
 * send-run.ts).
 */
import type { AppContext } from '../context/context.js';
import type { Member, Run } from '../model/model.js';
import { cutRefusal } from './answer-cut.js';
import { answeringCli } from '../agents/registry.js';
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { AnswerDetail, SendDetail } from '../kit/detail.js';
import { checkEffect, seconds, waitEffect } from '../kit/effects.js';
import type { PlanParts } from '../kit/execution.js';
import { refuse } from '../kit/execution.js';
import type { ActionRequest } from '../kit/types.js';
import { planHookAnswer } from './answer-hook.js';
import { answerEffects, lineEffects } from './answer-effects.js';
import { promptApproves } from './answer-approves.js';
import { fromAgentServer, planServerAnswer } from './answer-server.js';
import { hasPane, paneRefusal } from './targets.js';
import { memberNamed, qualifiedName, runLead } from './member-name.js';
import { onServer } from './pane-client.js';
import { guardEffect } from './input-guard.js';
import type { AgentCli } from '../agents/types.js';

/** How long the pane gets to show that the answer or the line was taken. */
export const CONFIRM_MS = 3000;
/** The longest line `send` types (a reply or an instruction, not a document). */
const MAX_TEXT = 4000;

function memberOf(run: Run, name: string | undefined, fallbackToLead: boolean): Member | { refusal: string } {
  const named = name ? memberNamed(run, name) : undefined;
  if (named && 'refusal' in named) return named;
  const m = named ?? (fallbackToLead ? runLead(run) : undefined);
  if (!m) return { refusal: fallbackToLead ? `${run.id} has no lead` : whoAsks(run) };
  if (!hasPane(m)) return { refusal: `${m.name} of ${run.id} has no tmux pane to type into` };
  const no = paneRefusal(m);
  if (no !== null) return { refusal: `${m.name} of ${run.id}: ${no}` };
  if (m.state === 'dead') return { refusal: `${m.name}'s pane ${m.paneId} is dead` };
  return m;
}

/** Why an answer needs a member named, and who is asking now (the members whose panes show a prompt). */
function whoAsks(run: Run): string {
  const asking = run.members.filter((m) => m.prompt);
  if (asking.length === 0) return `name the member (--member NAME): no member of ${run.id} shows a prompt now`;
  const list = asking.map((m) => `${qualifiedName(run, m)} asks "${sanitizeLine(m.prompt!.question)}"`).join('; ');
  return `name the member (--member NAME): ${list}`;
}

/**
 * The member named, and the member whose pane draws its prompt: itself, or (a teammate's request
 * forwarded to its lead) the member its prompt says, `drawnIn`.
 */
function askingAndDrawer(
  run: Run,
  name: string | undefined,
): { asking: Member; drawer: Member } | { refusal: string; paneId?: string | null } {
  const named = name ? memberNamed(run, name) : undefined;
  if (named && 'refusal' in named) return named;
  const asking = named;
  const drawnIn = asking?.prompt?.drawnIn;
  if (!asking || drawnIn === undefined) {
    const m = memberOf(run, name, false);
    return 'refusal' in m ? m : { asking: m, drawer: m };
  }
  const drawer = memberOf(run, drawnIn, false);
  if ('refusal' in drawer)
    return { refusal: `${asking.name}'s request is drawn in ${drawnIn}'s pane: ${drawer.refusal}` };
  return { asking, drawer };
}

/** Why `choice` is no answer the CLI takes. */
function keyRefusal(cli: AgentCli, choice: string): string {
  return `the answer to ${cli.label} is one of ${cli.answerKeys.join(' ')}: not "${sanitizeLine(choice).slice(0, 40)}"`;
}

/** What an answer's plan hands its run: the pane, the choice, the dialog seen and when. */
function answerDetail(
  req: ActionRequest,
  asking: Member,
  m: Member,
  choice: string,
  seen: PanePrompt | null,
): AnswerDetail {
  const seenAt = seen?.since !== undefined ? Date.parse(seen.since) : NaN;
  return {
    kind: 'answer',
    member: m.name,
    paneId: m.paneId!,
    server: m.tmuxServer ?? null,
    choice,
    expect: req.expect ?? seen?.signature ?? null,
    seenAt: Number.isFinite(seenAt) ? seenAt : null,
    asking: asking === m ? null : asking.name,
    ...(m.agent && m.agent !== 'unknown' ? { agent: m.agent } : {}),
    confirmMs: CONFIRM_MS,
    ...(m.paneProcess ? { process: m.paneProcess } : {}),
    ...(req.byRule ? { byRule: req.byRule } : {}),
  };
}

/** What an answer is about, or why `choice` is no answer to the dialog the snapshot saw. */
interface Chosen {
  asking: Member;
  /** The member whose pane draws the dialog. */
  m: Member;
  cli: AgentCli;
  choice: string;
  seen: PanePrompt | null;
  option: PromptOption | null;
}

/** The member, the CLI and the option an answer is for, or why it is refused. */
function chosen(run: Run, req: ActionRequest): Chosen | { refusal: string; paneId?: string | null } {
  const found = askingAndDrawer(run, req.members?.[0]);
  if ('refusal' in found) return { refusal: found.refusal };
  const { asking, drawer: m } = found;
  const choice = (req.choice ?? '').trim().toLowerCase();
  // The answers the pane's CLI takes, from its module: never typed into it otherwise.
  const cli = answeringCli(m.agent);
  if (!cli.answerKeys.includes(choice)) return { refusal: keyRefusal(cli, choice), paneId: m.paneId };
  // The prompt the snapshot saw in the pane (the screen's preview, or the CLI's capture) is the one answered.
  const seen = asking.prompt ?? null;
  const option = seen ? cli.option(seen, choice) : null;
  if (seen && !option)
    return {
      refusal:
        `the prompt ${asking.name} shows has no option ` +
        `${sanitizeLine(choice)}${choice === 'n' ? ' that says No' : ''}: ` +
        `${seen.options.map((o) => `${o.key}. ${o.label}`).join(' / ')}`,
      paneId: m.paneId,
    };
  const cut = seen && option ? cutRefusal(seen, option, `the dialog ${asking.name} shows`) : null;
  if (cut) return { refusal: cut, paneId: m.paneId };
  return { asking, m, cli, choice, seen, option };
}

/**
 * The plan of an answer through tower's hook, when it holds the request open for this pane (one
 * from this pane's server: the hook names $TMUX's socket, never another server's same %N); a rule's
 * answer only for the very request and input it read. Null: no request is held for the pane.
 */
function planThroughHook(
  ctx: AppContext,
  run: Run,
  req: ActionRequest,
  c: Chosen,
  who: string,
  detail: AnswerDetail,
  title: string,
): PlanParts | null {
  const { m, seen, option, choice } = c;
  const throughHook = planHookAnswer(ctx, run.id, m, who, detail, option, title, {
    request: req.request,
    expect: req.expect,
    seen,
  });
  if (!throughHook || !req.byRule) return throughHook;
  const h = 'detail' in throughHook ? (throughHook.detail as AnswerDetail | undefined)?.hook : null;
  if (
    h?.id === req.byRule.request &&
    h.input === req.byRule.input &&
    h.behavior === (choice === 'y' ? 'allow' : 'deny')
  )
    return throughHook;
  return refuse(
    `${req.byRule.rule} decided request ${req.byRule.request}, but ${who}'s held request is ` +
      `another now (${h?.id ?? 'none'}): nothing answered`,
    title,
    m.paneId,
  );
}

/** The plan of an answer typed into the pane: the option's keys, once the pane shows the dialog seen. */
function planTyped(ctx: AppContext, run: Run, c: Chosen, who: string, detail: AnswerDetail): PlanParts {
  const { m, cli, choice, seen, option } = c;
  const server = m.tmuxServer ?? null;
  const effects = [
    checkEffect(
      `what ${m.paneId}${onServer(server)} shows first: the answer is typed only while it shows ` +
        `the prompt you saw with option ${option?.key ?? choice}, ` +
        `drawn at least ${seconds(cli.keys.minDialogAgeMs)} ago`,
    ),
    ...answerEffects(ctx, m.paneId!, server, cli, option ?? { key: choice, label: choice }),
    waitEffect(`up to ${seconds(CONFIRM_MS)} for the question and its options to go`),
  ];
  const about = seen ? `: ${[...seen.subject, seen.question].join(' · ')} → ${option!.key}. ${option!.label}` : '';
  const because = detail.keysBecause ? ` (typed, not through the hook: ${detail.keysBecause})` : '';
  return {
    refusal: null,
    title: `Answer ${option?.key ?? choice} to ${who} of ${run.id} (${m.paneId}${onServer(server)})${about}${because}`,
    target: m.paneId,
    effects,
    detail,
    destructive: true,
    ...(seen && option ? { approves: promptApproves(seen, option) } : {}),
  };
}

/** Plans answering the prompt a member's pane shows (or its lead's pane, for a teammate's request). */
export function planAnswer(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const title = `Answer ${run.id}`;
  const c = chosen(run, req);
  if ('refusal' in c) return refuse(c.refusal, title, c.paneId);
  const { asking, m, seen, option, choice } = c;
  const detail = answerDetail(req, asking, m, choice, seen);
  const who = asking === m ? m.name : `${asking.name} (drawn in ${m.name}'s pane)`;
  // A request the CLI's own server showed is answered there, by its id (a rule's too).
  if (seen && option && fromAgentServer(seen)) return planServerAnswer(m, who, detail, seen, option, title);
  const throughHook = planThroughHook(ctx, run, req, c, who, detail, title);
  if (throughHook) return throughHook;
  const noKeys = keysRefusal(req, detail, who, seen !== null);
  if (noKeys) return refuse(noKeys, title, m.paneId);
  return planTyped(ctx, run, c, who, detail);
}

/**
 * Why no key may be typed for this answer, or null: a rule answers the request it read through the
 * hook or nothing, and keys go only into a dialog the operator was shown (read now, or `expect`).
 */
function keysRefusal(req: ActionRequest, detail: AnswerDetail, who: string, seen: boolean): string | null {
  if (req.byRule)
    return (
      `${req.byRule.rule} decided request ${req.byRule.request}, which is no longer held for ` +
      `${who}${detail.keysBecause ? ` (${detail.keysBecause})` : ''}: nothing answered`
    );
  if (!seen && detail.expect === null)
    return `${who}'s pane ${detail.paneId} shows no prompt tower read: nothing was shown to answer (look again: tower status)`;
  return null;
}

/** Plans typing a line to a member (the lead unless named). */
export function planSend(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const title = `Send to ${run.id}`;
  const m = memberOf(run, req.members?.[0], true);
  if ('refusal' in m) return refuse(m.refusal, title);
  const text = req.text ?? '';
  if (text.trim() === '') return refuse('nothing to send: give the text', title, m.paneId);
  if (text.length > MAX_TEXT)
    return refuse(`the text is ${text.length} characters; at most ${MAX_TEXT}`, title, m.paneId);
  // Only printable text is typed: a newline would submit early, an escape sequence would drive the
  // agent's screen. sanitizeLine changes any text holding either, or a tab.
  if (sanitizeLine(text) !== text)
    return refuse('the text holds control characters or line breaks; send one printable line', title, m.paneId);
  const server = m.tmuxServer ?? null;
  const detail: SendDetail = {
    kind: 'send',
    member: m.name,
    paneId: m.paneId!,
    server,
    text,
    ...(m.agent && m.agent !== 'unknown' ? { agent: m.agent } : {}),
    confirmMs: CONFIRM_MS,
    ...(m.paneProcess ? { process: m.paneProcess } : {}),
  };
  const effects = [
    guardEffect({ target: m.paneId!, server, who: m.name }, 'the line'),
    ...lineEffects(ctx, m.paneId!, server, answeringCli(m.agent), text, CONFIRM_MS),
    waitEffect(`up to ${seconds(CONFIRM_MS)} for the line to leave the input box`),
  ];
  return {
    refusal: null,
    title: `Send a line to ${m.name} of ${run.id} (${m.paneId}${onServer(server)})`,
    target: m.paneId,
    effects,
    detail,
    destructive: true,
  };
}
