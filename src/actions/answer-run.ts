/**
 * Running an answer's plan (`tower answer`), loaded only when an answer runs: through the CLI's server
 * or tower's hook where the plan chose them, else the option's keys typed into the pane, only while
 * it shows, whole, the very dialog the operator saw, old enough to take keys; then captured again
 * until the dialog goes.
 */
import path from 'node:path';
import type { AgentWays, SendKeys } from '../agents/types.js';
import type { AnswerDetail } from '../kit/detail.js';
import { seconds } from '../kit/effects.js';
import type { Execution } from '../kit/execution.js';
import type { ActionOutcome } from '../kit/types.js';
import { pollUntil, sleep } from '../kit/wait.js';
import { readHeldRequest } from '../store/held-requests.js';
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';
import { typeKeys } from './agent-typing.js';
import { cutRefusal } from './answer-cut.js';
import { promptApproves } from './answer-approves.js';
import { answerThroughHook } from './answer-hook.js';
import { selectAndConfirm } from './answer-select.js';
import { runServerAnswer } from './answer-server.js';
import { paneScreen } from './pane-client.js';
import { recheckPane } from './pane-identity.js';

/** The dialog the pane shows now, with the option chosen in it, or why no key may go in. */
type Check = (read?: string) => Promise<{ prompt: PanePrompt; option: PromptOption } | ActionOutcome>;

function describe(p: PanePrompt): string {
  return [p.question, ...p.options.map((o) => `${o.key}. ${o.label}`)].join(' / ');
}

/** Whether the held request still holds exactly the input a rule read (its file read again now). */
function sameInput(h: NonNullable<AnswerDetail['hook']>, input: string): boolean {
  const now = readHeldRequest(h.dir, path.basename(h.file));
  return now !== null && now.id === h.id && now.whole === input;
}

/**
 * The outcome of an answer that goes through the CLI's server or tower's hook, or of a rule's answer
 * that can go through neither (a rule never types into a dialog); null: the answer is typed.
 */
async function answerWithoutKeys(x: Execution, d: AnswerDetail): Promise<ActionOutcome | null> {
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
  return null;
}

/** Reads the pane now: the dialog asked about with the option chosen in it, shown whole, or why not. */
function promptCheck(x: Execution, d: AnswerDetail, ways: AgentWays, where: string): Check {
  return async (read?: string) => {
    const screen = read ?? (await paneScreen(x.env.ctx, d.paneId, d.server));
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
}

/**
 * Waits until the dialog is as old as the CLI needs before it takes keys (counted from when it was
 * first seen: the snapshot's capture, else a look now); an outcome when it stopped.
 */
async function untilOldEnough(
  x: Execution,
  d: AnswerDetail,
  ways: AgentWays,
  check: Check,
): Promise<ActionOutcome | null> {
  // A dialog old enough already is looked at once, right before typing: a look before the pane's
  // check would only cost the answer a capture's time.
  const age = ways.typing.minDialogAgeMs;
  if (typeof d.seenAt === 'number' && d.seenAt + age <= Date.now()) return null;
  const first = await check();
  if ('status' in first) return first;
  const firstSeen = Math.min(d.seenAt ?? Date.now(), Date.now());
  const young = firstSeen + age - Date.now();
  if (young > 0 && !(await sleep(young, x.hooks.signal)))
    return { status: 'cancelled', message: 'cancelled before typing' };
  return null;
}

/** Answers the prompt, after checking it is still the one asked about and old enough to take keys. */
export async function runAnswer(x: Execution, d: AnswerDetail): Promise<ActionOutcome> {
  const without = await answerWithoutKeys(x, d);
  if (without) return without;
  const ctx = x.env.ctx;
  const ways = await (await import('../agents/ways-for.js')).waysFor(d.agent);
  const where = d.asking ? `${d.asking}'s request in ${d.member}'s pane ${d.paneId}` : `${d.member}'s pane ${d.paneId}`;
  const check = promptCheck(x, d, ways, where);
  // A CLI may drop keys typed into a dialog it has just drawn (Claude Code does).
  const young = await untilOldEnough(x, d, ways, check);
  if (young) return young;
  // Read again right before typing, in the same tmux call that checks the pane's process: the key
  // goes only into the dialog seen, whole, this instant, of the agent seen.
  const seen = await check(await recheckPane(ctx, { ...d, who: d.member }, 60));
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
