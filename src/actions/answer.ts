/**
 * Answering an agent without attaching: the option of the permission prompt or question its pane
 * shows (`tower answer`), or a line typed to it (`tower send`). Both capture the pane right before
 * typing and refuse when it shows something else than the operator acted on; both type the way that
 * lands in Claude Code (the text as literal keys, then a raw carriage return, `send-keys -H 0D`, as a
 * command of its own), then capture again and say whether the prompt cleared or the line went in.
 * A permission request tower's hook holds is answered through the hook instead (answer-hook.ts).
 */
import path from 'node:path';
import type { AppContext } from '../context/context.js';
import type { Member, Run } from '../model/model.js';
import { MIN_DIALOG_AGE_MS, noOption } from '../store/prompt-reading.js';
import { answeringCli } from '../agents/registry.js';
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';
import { readHeldRequest } from '../store/held-requests.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { AnswerDetail, SendDetail } from '../kit/detail.js';
import { checkEffect, seconds, waitEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { refuse } from '../kit/execution.js';
import type { ActionOutcome, ActionRequest } from '../kit/types.js';
import { pollUntil, sleep } from '../kit/wait.js';
import { answerThroughHook, planHookAnswer } from './answer-hook.js';
import { fromAgentServer, planServerAnswer, runServerAnswer } from './answer-server.js';
import { selectAndConfirm } from './answer-select.js';
import { answerEffects, lineEffects } from './answer-effects.js';
import { promptApproves } from './answer-approves.js';
import { hasPane, paneRefusal } from './targets.js';
import { memberNamed, qualifiedName, runLead } from './member-name.js';
import { onServer, paneScreen } from './pane-client.js';
import { recheckPane } from './pane-identity.js';
import { guardEffect, guardTyping } from './input-guard.js';
import { confirmSent, markBeforeSend } from './send-confirm.js';
import type { AgentCli, AgentWays, SendKeys } from '../agents/types.js';
import { atInputOf, pasteText, typeKeys } from './agent-typing.js';
import type { AgentId } from '../model/model.js';

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

/** Plans answering the prompt a member's pane shows (or its lead's pane, for a teammate's request). */
export function planAnswer(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const title = `Answer ${run.id}`;
  const found = askingAndDrawer(run, req.members?.[0]);
  if ('refusal' in found) return refuse(found.refusal, title);
  const { asking, drawer: m } = found;
  const choice = (req.choice ?? '').trim().toLowerCase();
  // The answers the pane's CLI takes, from its module: never typed into it otherwise.
  const cli = answeringCli(m.agent);
  if (!cli.answerKeys.includes(choice)) return refuse(keyRefusal(cli, choice), title, m.paneId);
  // The prompt the snapshot saw in the pane (the screen's preview, or the CLI's capture) is the one answered.
  const seen = asking.prompt ?? null;
  const option = seen ? cli.option(seen, choice) : null;
  if (seen && !option)
    return refuse(
      `the prompt ${asking.name} shows has no option ` +
        `${sanitizeLine(choice)}${choice === 'n' ? ' that says No' : ''}: ` +
        `${seen.options.map((o) => `${o.key}. ${o.label}`).join(' / ')}`,
      title,
      m.paneId,
    );
  const cut = seen && option ? cutRefusal(seen, option, `the dialog ${asking.name} shows`) : null;
  if (cut) return refuse(cut, title, m.paneId);
  const server = m.tmuxServer ?? null;
  const seenAt = seen?.since !== undefined ? Date.parse(seen.since) : NaN;
  const detail: AnswerDetail = {
    kind: 'answer',
    member: m.name,
    paneId: m.paneId!,
    server,
    choice,
    expect: req.expect ?? seen?.signature ?? null,
    seenAt: Number.isFinite(seenAt) ? seenAt : null,
    asking: asking === m ? null : asking.name,
    ...(m.agent && m.agent !== 'unknown' ? { agent: m.agent } : {}),
    confirmMs: CONFIRM_MS,
    ...(m.paneProcess ? { process: m.paneProcess } : {}),
    ...(req.byRule ? { byRule: req.byRule } : {}),
  };
  const about = seen ? `: ${[...seen.subject, seen.question].join(' · ')} → ${option!.key}. ${option!.label}` : '';
  const who = asking === m ? m.name : `${asking.name} (drawn in ${m.name}'s pane)`;
  // A request the CLI's own server showed is answered there, by its id (a rule's too).
  if (seen && option && fromAgentServer(seen)) return planServerAnswer(m, who, detail, seen, option, title);
  // A request tower's hook holds open for this pane is answered through the hook: one from this
  // pane's server (the hook names $TMUX's socket), never one from another server's same %N.
  const throughHook = planHookAnswer(ctx, run.id, m, who, detail, option, title, {
    request: req.request,
    expect: req.expect,
    seen,
  });
  if (throughHook && req.byRule) {
    const h = 'detail' in throughHook ? (throughHook.detail as AnswerDetail | undefined)?.hook : null;
    if (
      h?.id !== req.byRule.request ||
      h.input !== req.byRule.input ||
      h.behavior !== (choice === 'y' ? 'allow' : 'deny')
    )
      return refuse(
        `${req.byRule.rule} decided request ${req.byRule.request}, but ${who}'s held request is ` +
          `another now (${h?.id ?? 'none'}): nothing answered`,
        title,
        m.paneId,
      );
  }
  if (throughHook) return throughHook;
  const noKeys = keysRefusal(req, detail, who, seen !== null);
  if (noKeys) return refuse(noKeys, title, m.paneId);
  const effects = [
    checkEffect(
      `what ${m.paneId}${onServer(server)} shows first: the answer is typed only while it shows ` +
        `the prompt you saw with option ${option?.key ?? choice}, ` +
        `drawn at least ${seconds(MIN_DIALOG_AGE_MS)} ago`,
    ),
    ...answerEffects(ctx, m.paneId!, server, cli, option ?? { key: choice, label: choice }),
    waitEffect(`up to ${seconds(CONFIRM_MS)} for the question and its options to go`),
  ];
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

/**
 * Why `option` may not be chosen in a dialog whose top is out of sight, or null: tower cannot show
 * what it would approve, so only the option that says No is typed into it.
 */
function cutRefusal(p: PanePrompt, option: PromptOption, what: string): string | null {
  if (!p.cut || noOption(p) === option) return null;
  return (
    `${what} is taller than the pane (${p.cut}): ` +
    `tower cannot show what ${option.key}. ${option.label} would approve; ` +
    'attach to the pane (tower attach) and answer it there, or answer n'
  );
}

function describe(p: PanePrompt): string {
  return [p.question, ...p.options.map((o) => `${o.key}. ${o.label}`)].join(' / ');
}

/**
 * The reading and typing of the CLI a plan saw in the pane (Claude Code's when it said none), loaded as the
 * action runs.
 */
async function waysFor(agent: AgentId | undefined): Promise<AgentWays> {
  return (await import('../agents/ways-for.js')).waysFor(agent);
}

/** Whether the held request still holds exactly the input a rule read (its file read again now). */
function sameInput(h: NonNullable<AnswerDetail['hook']>, input: string): boolean {
  const now = readHeldRequest(h.dir, path.basename(h.file));
  return now !== null && now.id === h.id && now.whole === input;
}

/** Answers the prompt, after checking it is still the one asked about and old enough to take keys. */
export async function runAnswer(x: Execution, d: AnswerDetail): Promise<ActionOutcome> {
  if (d.expect?.startsWith('server:')) return runServerAnswer(x, d);
  if (d.hook && d.byRule && !sameInput(d.hook, d.byRule.input))
    return {
      status: 'refused',
      message:
        `${d.byRule.rule} decided request ${d.byRule.request} of ${d.member}, whose input is ` +
        `not what the rule read any more: nothing answered`,
    };
  if (d.hook) {
    const through = await answerThroughHook(x, d, d.hook);
    if (through && d.byRule) return { ...through, message: `${through.message}, by ${d.byRule.rule}` };
    if (through) return through;
  }
  if (d.byRule)
    return {
      status: 'refused',
      message:
        `${d.byRule.rule} decided request ${d.byRule.request} of ${d.member}, which is no ` +
        `longer held: nothing answered, no key typed (${d.keysBecause ?? 'the hook let it go'})`,
    };
  const ctx = x.env.ctx;
  const ways = await waysFor(d.agent);
  const where = d.asking ? `${d.asking}'s request in ${d.member}'s pane ${d.paneId}` : `${d.member}'s pane ${d.paneId}`;
  const check = async (): Promise<{ prompt: PanePrompt; option: PromptOption } | ActionOutcome> => {
    const screen = await paneScreen(ctx, d.paneId, d.server);
    const now = ways.screen.prompt(screen);
    if (!now) {
      const why = ways.screen.atInput(screen);
      return {
        status: 'refused',
        message:
          why && why.kind !== 'dialog' && why.kind !== 'no-input-box'
            ? `${where} ${why.reason}`
            : `${where} shows no prompt now (the agent moved on, or another answer came first)`,
      };
    }
    if (d.expect !== null && now.signature !== d.expect)
      return { status: 'refused', message: `${where} shows another prompt than the one you saw: ${describe(now)}` };
    const option = ways.screen.option(now, d.choice);
    if (!option) return { status: 'refused', message: `the prompt has no option ${d.choice}: ${describe(now)}` };
    const cut = cutRefusal(now, option, where);
    if (cut) return { status: 'refused', message: cut };
    return { prompt: now, option };
  };
  // Claude Code drops keys typed into a dialog it has just drawn: wait until this one is old enough,
  // counted from when it was first seen (the snapshot's capture, else this one), and look again.
  // A dialog old enough already is looked at once, right before typing: a look before the pane's
  // check would only cost the answer a capture's time.
  const oldEnough = typeof d.seenAt === 'number' && d.seenAt + ways.typing.minDialogAgeMs <= Date.now();
  if (!oldEnough) {
    const first = await check();
    if ('status' in first) return first;
    const firstSeen = Math.min(d.seenAt ?? Date.now(), Date.now());
    const young = firstSeen + ways.typing.minDialogAgeMs - Date.now();
    if (young > 0 && !(await sleep(young, x.hooks.signal)))
      return { status: 'cancelled', message: 'cancelled before typing' };
  }
  await recheckPane(ctx, { paneId: d.paneId, server: d.server, process: d.process, who: d.member });
  // Read again right before typing: the key goes only into the dialog seen, whole, this instant.
  const seen = await check();
  if ('status' in seen) return seen;
  const { prompt: before, option } = seen;
  // Cancelled while it looked (on a box: the operator's connection ended): no key goes in after that.
  if (x.hooks.signal?.aborted) return { status: 'cancelled', message: 'cancelled before typing' };
  const stopped = await typeChoice(x, d, ways, option, async () => {
    // Read again right before the key that takes it: the same dialog, whole.
    const again = await check();
    if ('status' in again) return again;
    return again.prompt.signature === before.signature
      ? null
      : {
          status: 'refused' as const,
          message: `${where} shows another dialog after the selection moved: nothing taken`,
        };
  });
  if (stopped) return stopped;
  return confirmAnswer(x, d, ways, before, option);
}

/** Whether the answer typed was taken: the question and its options gone from the pane. */
async function confirmAnswer(
  x: Execution,
  d: AnswerDetail,
  ways: AgentWays,
  before: PanePrompt,
  option: PromptOption,
): Promise<ActionOutcome> {
  const ctx = x.env.ctx;
  // What was approved, whole: the dialog's lines as drawn, the question and the option.
  const approved = promptApproves(before, option);
  const details: string[] = [];
  // Taken only once the question and its options are gone, on two captures in a row (a frame caught
  // half drawn reads as no dialog once), or another dialog stands in its place.
  let goneBefore = false;
  const cleared = await pollUntil({
    timeoutMs: d.confirmMs,
    intervalMs: 150,
    signal: x.hooks.signal,
    check: async () => {
      const gone = ways.screen.gone(await paneScreen(ctx, d.paneId, d.server), before);
      const twice = gone && goneBefore;
      goneBefore = gone;
      return twice ? true : null;
    },
  });
  if (d.keysBecause) details.push(`typed into the pane, not through the hook: ${d.keysBecause}`);
  const to = d.asking ? `${d.asking} (in ${d.member}'s pane)` : d.member;
  if (cleared.status === 'ok')
    return {
      status: 'done',
      message: `answered ${option.key} (${option.label}) to ${to}: the question and its options are gone`,
      details,
      approved,
    };
  // The key went in: a cancel now stops the looking, not the answer, and says so.
  if (cleared.status === 'cancelled')
    return {
      status: 'cancelled',
      message: `typed ${option.key} into ${d.paneId}, then cancelled while looking for the dialog to go; look at the pane`,
      details,
      approved,
    };
  return {
    status: 'failed',
    message:
      `typed ${option.key} into ${d.paneId} but the dialog is still shown after ` +
      `${seconds(d.confirmMs)}; look at the pane`,
    details,
    approved,
  };
}

/**
 * Types the keys that choose `option`: its own keys, or (a dialog whose options are a selection)
 * the selection moved onto it and read back, then the key that takes it. An outcome when it stopped.
 */
async function typeChoice(
  x: Execution,
  d: AnswerDetail,
  ways: AgentWays,
  option: PromptOption,
  stillShown: () => Promise<ActionOutcome | null>,
): Promise<ActionOutcome | null> {
  const ctx = x.env.ctx;
  const select = ways.typing.select;
  if (!select?.takes.includes(option.label)) {
    await typeKeys(ctx, d.paneId, d.server, ways.typing.answer(option));
    return null;
  }
  const pane = { paneId: d.paneId, server: d.server, who: d.member };
  const typeAll = (calls: readonly SendKeys[]) => typeKeys(ctx, d.paneId, d.server, calls);
  return selectAndConfirm(ctx, pane, select, option, typeAll, stillShown, x.hooks.signal);
}

/** Whether the input box draws the pasted line within the send's wait (a CLI that drops an Enter before that). */
async function drawn(ctx: AppContext, d: SendDetail, ways: AgentWays, signal?: AbortSignal): Promise<boolean> {
  const holds = ways.screen.inputHolds;
  if (!holds) return true;
  const seen = await pollUntil({
    timeoutMs: d.confirmMs,
    intervalMs: 100,
    ...(signal ? { signal } : {}),
    check: async () => (holds(await paneScreen(ctx, d.paneId, d.server), d.text) ? true : null),
  });
  return seen.status === 'ok';
}

/** Types a line to the member, unless its pane shows a prompt. */
export async function runSend(x: Execution, d: SendDetail): Promise<ActionOutcome> {
  const ctx = x.env.ctx;
  const ways = await waysFor(d.agent);
  await recheckPane(ctx, { paneId: d.paneId, server: d.server, process: d.process, who: d.member });
  await guardTyping(ctx, { target: d.paneId, server: d.server, who: d.member }, 'the line', atInputOf(ways));
  const mark = markBeforeSend(ctx, d);
  const submit = ways.typing.submitAfterPaste;
  if (submit) {
    await pasteText(ctx, d.paneId, d.server, d.text);
    if (ways.typing.submitWhenDrawn && !(await drawn(ctx, d, ways, x.hooks.signal)))
      return {
        status: 'failed',
        message:
          `pasted the line into ${d.member}'s pane ${d.paneId}, but its input box did not show it within ` +
          `${seconds(d.confirmMs)}: not submitted; look at the pane`,
      };
    await typeKeys(ctx, d.paneId, d.server, submit);
  } else await typeKeys(ctx, d.paneId, d.server, ways.typing.line(d.text));
  const holds = ways.screen.inputHolds;
  return confirmSent(ctx, d, mark, x.hooks.signal, holds ? (screen, typed) => !holds(screen, typed) : undefined);
}
