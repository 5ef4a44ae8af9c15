/**
 * Answering an agent without attaching: the option of the permission prompt or question its pane
 * shows (`tower answer`), or a line typed to it (`tower send`). Both capture the pane right before
 * typing and refuse when it shows something else than the operator acted on; both type the way that
 * lands in Claude Code (the text as literal keys, then a raw carriage return, `send-keys -H 0D`, as a
 * command of its own), then capture again and say whether the prompt cleared or the line went in.
 */
import type { AppContext } from '../context.js';
import type { Member, Run } from '../model.js';
import { readPrompt } from '../store/prompt-reading.js';
import type { PanePrompt } from '../store/prompt-reading.js';
import { sanitize, sanitizeLine } from '../text.js';
import type { AnswerDetail, SendDetail } from '../kit/detail.js';
import { seconds, tmuxEffect, waitEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { ActionStop, isPaneGone, refuse } from '../kit/execution.js';
import type { ActionOutcome, ActionRequest } from '../kit/types.js';
import { pollUntil, showsPrompt } from '../kit/wait.js';
import { hasPane } from './targets.js';
import { onServer, paneClient } from './pane-client.js';

/** How long the pane gets to show that the answer or the line was taken. */
export const CONFIRM_MS = 3000;
/** The longest line `send` types (a reply or an instruction, not a document). */
const MAX_TEXT = 4000;

function memberOf(run: Run, name: string | undefined, fallbackToLead: boolean): Member | { refusal: string } {
  const m = name ? run.members.find((x) => x.name === name) : fallbackToLead ? run.members.find((x) => x.lead) : undefined;
  if (!m) return { refusal: name ? `${run.id} has no member "${sanitizeLine(name)}"` : `name the member (--member NAME)${fallbackToLead ? `: ${run.id} has no lead` : ''}` };
  if (!hasPane(m)) return { refusal: `${m.name} of ${run.id} has no tmux pane to type into` };
  if (m.tmuxServerUnknown !== undefined) return { refusal: `${m.name} of ${run.id}: ${m.tmuxServerUnknown}` };
  if (m.state === 'dead') return { refusal: `${m.name}'s pane ${m.paneId} is dead` };
  return m;
}

/** The two tmux calls that type `text` and submit it, on the pane's own server. */
function typeEffects(ctx: AppContext, paneId: string, server: string | null, text: string) {
  const tmux = paneClient(ctx, server);
  return [tmuxEffect(tmux, ['send-keys', '-t', paneId, '-l', '--', text]), tmuxEffect(tmux, ['send-keys', '-t', paneId, '-H', '0D'])];
}

/** Plans answering the prompt a member's pane shows. */
export function planAnswer(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const title = `Answer ${run.id}`;
  const m = memberOf(run, req.members?.[0], false);
  if ('refusal' in m) return refuse(m.refusal, title);
  const choice = (req.choice ?? '').trim();
  if (!/^([1-9]|y|n)$/i.test(choice)) return refuse(`the answer is an option's number (1-9), or y / n: not "${sanitizeLine(choice)}"`, title, m.paneId);
  // The prompt the snapshot saw in the pane (the screen's preview, or the CLI's capture) is the one answered.
  const seen = m.prompt ?? null;
  const option = seen?.options.find((o) => o.key === choice.toLowerCase());
  if (seen && !option) return refuse(`the prompt ${m.name} shows has no option ${sanitizeLine(choice)}: ${seen.options.map((o) => `${o.key}. ${o.label}`).join(' / ')}`, title, m.paneId);
  const server = m.tmuxServer ?? null;
  const detail: AnswerDetail = { kind: 'answer', member: m.name, paneId: m.paneId!, server, choice: choice.toLowerCase(), expect: req.expect ?? seen?.signature ?? null, confirmMs: CONFIRM_MS };
  const about = seen ? `: ${[...seen.subject, seen.question].join(' · ')} → ${option!.key}. ${option!.label}` : '';
  const effects = [
    waitEffect(`capture ${m.paneId}${onServer(server)} first: refused unless it shows ${detail.expect ? 'the prompt you saw' : 'a prompt'} with option ${detail.choice}`),
    ...typeEffects(ctx, m.paneId!, server, detail.choice),
    waitEffect(`up to ${seconds(CONFIRM_MS)} for the prompt to clear`),
  ];
  return { refusal: null, title: `Answer ${detail.choice} to ${m.name} of ${run.id} (${m.paneId}${onServer(server)})${about}`, target: m.paneId, effects, detail, destructive: true };
}

/** Plans typing a line to a member (the lead unless named). */
export function planSend(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const title = `Send to ${run.id}`;
  const m = memberOf(run, req.members?.[0], true);
  if ('refusal' in m) return refuse(m.refusal, title);
  const text = req.text ?? '';
  if (text.trim() === '') return refuse('nothing to send: give the text', title, m.paneId);
  if (text.length > MAX_TEXT) return refuse(`the text is ${text.length} characters; at most ${MAX_TEXT}`, title, m.paneId);
  // Only printable text is typed: a newline would submit early, an escape sequence would drive the
  // agent's screen. sanitizeLine changes any text holding either, or a tab.
  if (sanitizeLine(text) !== text) return refuse('the text holds control characters or line breaks; send one printable line', title, m.paneId);
  const server = m.tmuxServer ?? null;
  const detail: SendDetail = { kind: 'send', member: m.name, paneId: m.paneId!, server, text, confirmMs: CONFIRM_MS };
  const effects = [
    waitEffect(`capture ${m.paneId}${onServer(server)} first: refused while it shows a permission prompt or question`),
    ...typeEffects(ctx, m.paneId!, server, text),
    waitEffect(`up to ${seconds(CONFIRM_MS)} for the line to leave the input box`),
  ];
  return { refusal: null, title: `Send a line to ${m.name} of ${run.id} (${m.paneId}${onServer(server)})`, target: m.paneId, effects, detail, destructive: true };
}

/** The pane's screen as text (on its own server); a pane that is gone is a failure saying so. */
async function screen(ctx: AppContext, paneId: string, server: string | null | undefined): Promise<string> {
  try {
    return sanitize(await paneClient(ctx, server).capturePane(paneId, 60));
  } catch (err) {
    if (isPaneGone(err)) throw new ActionStop('failed', `pane ${paneId} is gone (${(err as Error).message})`);
    throw err;
  }
}

function describe(p: PanePrompt): string {
  return [p.question, ...p.options.map((o) => `${o.key}. ${o.label}`)].join(' / ');
}

async function typeAndSubmit(ctx: AppContext, paneId: string, server: string | null | undefined, text: string): Promise<void> {
  const tmux = paneClient(ctx, server);
  await tmux.sendText(paneId, text);
  await tmux.run(['send-keys', '-t', paneId, '-H', '0D']);
}

/** Answers the prompt, after checking it is still the one asked about. */
export async function runAnswer(x: Execution, d: AnswerDetail): Promise<ActionOutcome> {
  const ctx = x.env.ctx;
  const before = readPrompt(await screen(ctx, d.paneId, d.server));
  if (!before) return { status: 'refused', message: `${d.member}'s pane ${d.paneId} shows no prompt now (the agent moved on, or another answer came first)` };
  if (d.expect !== null && before.signature !== d.expect) return { status: 'refused', message: `${d.member}'s pane shows another prompt than the one you saw: ${describe(before)}` };
  const option = before.options.find((o) => o.key === d.choice);
  if (!option) return { status: 'refused', message: `the prompt has no option ${d.choice}: ${describe(before)}` };
  await typeAndSubmit(ctx, d.paneId, d.server, d.choice);
  const details = [`${before.subject.join(' · ')}`.trim(), `${before.question} → ${option.key}. ${option.label}`].filter((l) => l !== '');
  const cleared = await pollUntil({
    timeoutMs: d.confirmMs,
    intervalMs: 150,
    signal: x.hooks.signal,
    check: async () => (readPrompt(await screen(ctx, d.paneId, d.server))?.signature === before.signature ? null : true),
  });
  if (cleared.status === 'ok') return { status: 'done', message: `answered ${option.key} (${option.label}) to ${d.member}: the prompt cleared`, details };
  return { status: 'failed', message: `typed ${option.key} into ${d.paneId} but the prompt is still shown after ${seconds(d.confirmMs)}; look at the pane`, details };
}

/** Types a line to the member, unless its pane shows a prompt. */
export async function runSend(x: Execution, d: SendDetail): Promise<ActionOutcome> {
  const ctx = x.env.ctx;
  const prompt = readPrompt(await screen(ctx, d.paneId, d.server));
  if (prompt) return { status: 'refused', message: `${d.member}'s pane shows a prompt (${describe(prompt)}): answer it first (tower answer)` };
  await typeAndSubmit(ctx, d.paneId, d.server, d.text);
  const taken = await pollUntil({
    timeoutMs: d.confirmMs,
    intervalMs: 150,
    signal: x.hooks.signal,
    check: async () => (showsPrompt(await screen(ctx, d.paneId, d.server), d.text) ? true : null),
  });
  if (taken.status === 'ok') return { status: 'done', message: `sent a line to ${d.member} (${d.paneId}): it left the input box` };
  return { status: 'failed', message: `typed the line into ${d.paneId} but could not see it submitted within ${seconds(d.confirmMs)}; look at the pane` };
}
