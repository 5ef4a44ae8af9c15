/**
 * Answering a permission request tower's PermissionRequest hook holds open for a pane: the answer
 * is written to the hook's answer file instead of typed, and the hook hands it to Claude Code. The
 * CLI draws its own dialog all the same, so both ways are open and the first answer wins.
 */
import fs from 'node:fs';
import type { AppContext } from '../context/context.js';
import { stateHome } from '../config/config.js';
import { createExclusive, deleteFile } from '../kit/files.js';
import {
  ANSWER_MARGIN_MS,
  fromServer,
  heldDir,
  heldRequestNow,
  heldRequestsFor,
  wakeHeld,
} from '../store/held-requests.js';
import { heldFolderProblem } from '../store/held-folder.js';
import type { Member } from '../model/model.js';
import { readPrompt } from '../store/prompt-reading.js';
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';
import { approvedLines, chooseHeld, heldAbout, heldList, requestRef, tiedToDialog } from './held-choice.js';
import type { AnswerDetail } from '../kit/detail.js';
import { checkEffect, createEffect, waitEffect, wakeEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { refuse } from '../kit/execution.js';
import type { ActionOutcome } from '../kit/types.js';
import { pollUntil } from '../kit/wait.js';
import { serverSocket } from './pane-client.js';
import { recheckPane } from './pane-identity.js';

/**
 * The plan of an answer through the hook, when it holds a request from the pane `m` (`detail.paneId`
 * on `detail.server`): a refusal when the request cannot be shown whole. Null when no request is
 * held, or the answer is not one the hook can give (keys are typed then; `detail.keysBecause` says why).
 *
 * The request answered is the one the operator was shown, by its id and its input's hash
 * (held-choice.ts); the plan pins both.
 */
export function planHookAnswer(
  ctx: AppContext,
  runId: string,
  m: Member,
  who: string,
  detail: AnswerDetail,
  option: PromptOption | null,
  title: string,
  req: { request?: string | undefined; expect?: string | undefined; seen: PanePrompt | null },
): PlanParts | null {
  // A request tower's hook holds open for this pane is answered through the hook: one from this
  // pane's server (the hook names $TMUX's socket), never one from another server's same %N.
  const socket = serverSocket(ctx, detail.server);
  const all = heldRequestsFor(stateHome(ctx.env), socket, m.paneId!);
  const chosen = chooseHeld(all, m, { ...req, runId, choice: detail.choice });
  if ('keysBecause' in chosen) {
    detail.keysBecause = chosen.keysBecause;
    return null;
  }
  if ('refusal' in chosen) return chosen.refusal === null ? null : refuse(chosen.refusal, title, m.paneId);
  const held = chosen.held;
  const way = hookDecision(detail.choice, option?.label ?? null);
  if (!('behavior' in way)) {
    detail.keysBecause = way.because;
    return null;
  }
  detail.hook = {
    id: held.id,
    hash: held.hash,
    dir: heldDir(stateHome(ctx.env)),
    file: held.file,
    answerFile: held.answerFile,
    until: held.until,
    behavior: way.behavior,
    input: held.whole,
    cut: held.cut,
    socket,
  };
  const others = all.filter((r) => r !== held);
  const effects = [
    checkEffect(
      `${held.file} and what ${m.paneId} shows first: the answer is written only while request ` +
        `${requestRef(held)} is still held with this very input (its hash), and its dialog (Claude ` +
        `Code draws one too) was not answered in the pane already: the first answer wins`,
    ),
    createEffect(held.answerFile, `${way.behavior}\n`),
    wakeEffect(
      wakeFile(held.answerFile),
      'when it is a FIFO of yours the hook reads: it wakes the hook at once (an older hook line ' +
        'has none, and finds the answer file at its next look)',
    ),
    waitEffect(`until ${new Date(held.until).toISOString()} (the hold's end) for the hook to take the answer`),
  ];
  const also = others.length > 0 ? `; also held for the pane, not answered: ${heldList(others)}` : '';
  return {
    refusal: null,
    title:
      `Answer through the hook: ${way.behavior} ${heldAbout(held)} for ${who} of ${runId} ` +
      `(${m.paneId}), request ${requestRef(held)}; its dialog in the pane is open too: the first answer wins${also}`,
    target: m.paneId,
    effects,
    detail,
    destructive: true,
    approves: approvedLines(held),
    pin: { request: `${held.id}:${held.hash}` },
  };
}

/**
 * The hook's decision for an answer: option 1 or `y` allows, `n` or an option labelled No denies.
 * Anything else (`Yes, and don't ask again …`) is not a decision the hook can give: keys are typed.
 */
export function hookDecision(
  choice: string,
  label: string | null,
): { behavior: 'allow' | 'deny' } | { because: string } {
  if (choice === 'y' || (choice === '1' && (label === null || /^yes$/i.test(label)))) return { behavior: 'allow' };
  if (choice === 'n' || (label !== null && /^no\b/i.test(label))) return { behavior: 'deny' };
  return {
    because:
      `option ${choice}${label ? ` (${label})` : ''} is neither a plain yes nor no, and the ` +
      `hook answers only allow or deny`,
  };
}

/** The FIFO a hook waiting on it made beside its request (src/commands/hooks-settings.ts). */
const wakeFile = (answerFile: string): string => answerFile.replace(/\.answer$/, '.wake');

/** The longest tower waits for a hook to take its answer, whatever the request file says. */
const MAX_HOOK_WAIT_MS = 301_000;

/**
 * Writes the answer for the held request and waits for the hook to take it (the answer file gone).
 * Null when the request is no longer held (the hook gave up: the agent's dialog shows, keys follow).
 */
export async function answerThroughHook(
  x: Execution,
  d: AnswerDetail,
  h: NonNullable<AnswerDetail['hook']>,
): Promise<ActionOutcome | null> {
  const now = Date.now();
  // The request is read again right before its answer is written: the same id with the same input
  // (its hash) as planned, or nothing is written.
  const still = heldRequestNow(h.dir, h.id);
  if (
    !still ||
    still.file !== h.file ||
    still.paneId !== d.paneId ||
    !fromServer(still, h.socket ?? null) ||
    now > still.until - ANSWER_MARGIN_MS
  ) {
    d.keysBecause = `the request ${h.id} was no longer held when the answer came`;
    return null;
  }
  if (h.hash === undefined || still.hash === null || still.hash !== h.hash)
    return {
      status: 'refused',
      message:
        `request ${h.id} of ${d.member} holds another input than the one shown (sha256 ` +
        `${still.hash?.slice(0, 12) ?? 'unknown'} now, ${h.hash?.slice(0, 12) ?? 'none'} planned): nothing written`,
    };
  // The member's pane must still be the one the operator saw: a request is answered for that agent only.
  // Its screen is read in the same tmux call: what the pane shows now, for the dialog's check below.
  const screen = await recheckPane(x.env.ctx, { ...d, who: d.member }, 60);
  const details = [`through tower's PermissionRequest hook: wrote ${h.answerFile} (${h.behavior})`];
  const unsafe = heldFolderProblem(stateHome(x.env.ctx.env), h.dir);
  if (unsafe) return { status: 'refused', message: `no answer written: ${unsafe}` };
  // Claude Code draws its own dialog while the hook holds the request: both ways are open and the
  // first answer wins. A dialog the operator saw that is gone now was answered there: nothing is
  // written. A dialog the pane shows now must be this request's.
  const shown = readPrompt(screen);
  if (d.expect !== null && !d.expect.startsWith('held:') && shown?.signature !== d.expect)
    return {
      status: 'refused',
      message:
        `${d.member}'s dialog for request ${h.id} is no longer shown: it was answered in the ` +
        `pane first (the first answer wins); nothing written`,
    };
  if (shown && !tiedToDialog(still, shown))
    return {
      status: 'refused',
      message: `${d.member}'s pane shows a dialog that is not request ${h.id}'s: nothing written`,
    };
  if (!(await createExclusive(h.dir, h.answerFile, `${h.behavior}\n`))) {
    return {
      status: 'refused',
      message: `request ${h.id} of ${d.member} already has an answer (${h.answerFile}); another answer came first`,
      details,
    };
  }
  // A hook line that waits to be woken reads it at once; an older one finds the file at its next look.
  wakeHeld(wakeFile(h.answerFile));
  const taken = await pollUntil({
    timeoutMs: Math.min(MAX_HOOK_WAIT_MS, Math.max(0, still.until - now) + ANSWER_MARGIN_MS),
    intervalMs: 100,
    signal: x.hooks.signal,
    check: async () => (heldRequestNow(h.dir, h.id) === null && !(await exists(h.answerFile)) ? true : null),
  });
  if (taken.status === 'ok') {
    const said = h.behavior === 'allow' ? 'allowed' : 'denied';
    return {
      status: 'done',
      message:
        `${said} ${d.member}'s permission request through the hook (answered ${h.behavior}; ` +
        `request ${requestRef(still)})`,
      details,
      approved: approvedLines(still),
    };
  }
  // The hook is gone without reading it (its hold ended, or Claude Code ended it): take it back.
  await deleteFile(h.dir, h.answerFile).catch(() => false);
  return {
    status: 'failed',
    message:
      `wrote ${h.behavior} for ${d.member}'s held request ${h.id} but the hook did not take it ` +
      `before its hold ended; the agent shows its own dialog now: answer again`,
    details,
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.lstat(file);
    return true;
  } catch {
    return false;
  }
}
