/**
 * Answering a permission request tower's PermissionRequest hook holds open for a pane: the answer
 * is written to the hook's answer file instead of typed, and the hook hands it to Claude Code. The
 * CLI draws its own dialog all the same, so both ways are open and the first answer wins.
 */
import fs from 'node:fs';
import type { AppContext } from '../context/context.js';
import { stateHome } from '../config/config.js';
import { createExclusive, deleteFile } from '../kit/files.js';
import { ANSWER_MARGIN_MS, fromServer, heldDir, heldRequestNow, heldRequestsFor } from '../store/held-requests.js';
import { heldFolderProblem } from '../store/held-folder.js';
import type { HeldRequest } from '../store/held-requests.js';
import type { Member } from '../model/model.js';
import { readPrompt } from '../store/prompt-reading.js';
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { AnswerDetail } from '../kit/detail.js';
import { checkEffect, createEffect, waitEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { refuse } from '../kit/execution.js';
import type { ActionOutcome } from '../kit/types.js';
import { pollUntil } from '../kit/wait.js';
import { paneScreen, serverSocket } from './pane-client.js';
import { recheckPane } from './pane-identity.js';

/** A held request as the operator names it: `<epoch>-<pid>`, optionally `:<sha256 of its input>`. */
const REQUEST_REF = /^(\d{1,12}-\d{1,10})(?::([0-9a-f]{8,64}))?$/;

/** The request id and hash (or hash prefix) named by `--request`, or by a held prompt's signature. */
export function namedRequest(ref: string | null | undefined): { id: string; hash: string | null } | null {
  const m = ref ? REQUEST_REF.exec(ref.startsWith('held:') ? ref.slice(5) : ref) : null;
  return m ? { id: m[1]!, hash: m[2] ?? null } : null;
}

/** A held request's reference as it is shown and named: `<id>:<first 12 of its hash>`. */
export function requestRef(r: Pick<HeldRequest, 'id' | 'hash'>): string {
  return r.hash ? `${r.id}:${r.hash.slice(0, 12)}` : r.id;
}

/** Whether a held request's hash is the one named (the whole hash or a prefix of 8 or more). */
function sameHash(r: HeldRequest, hash: string | null): boolean {
  return hash === null || (r.hash !== null && r.hash.startsWith(hash));
}

/**
 * Whether the dialog a pane shows is a held request's: the text of the request's main field (the
 * command, the URL), every blank left out, is in the dialog's lines (wrapped as the pane wraps
 * them); a path may show relative to the agent's folder, so its end from a `/` on is enough.
 */
export function tiedToDialog(r: HeldRequest, p: PanePrompt): boolean {
  if (r.shown === null) return false;
  const squeeze = (t: string) => t.replace(/\s+/g, '');
  const screen = squeeze(p.subject.join('\n'));
  const value = squeeze(r.shown);
  if (value === '') return false;
  if (screen.includes(value)) return true;
  if (!r.shownIsPath) return false;
  const tail = value.slice(value.lastIndexOf('/') + 1);
  return tail !== '' && screen.includes(tail);
}

/** One line per held request: its reference, tool and line. */
function heldList(rs: readonly HeldRequest[]): string {
  return rs.map((r) => `${requestRef(r)} (${heldAbout(r)})`).join('; ');
}

/**
 * The plan of an answer through the hook, when it holds a request from the pane `m` (`detail.paneId`
 * on `detail.server`): a refusal when the request cannot be shown whole. Null when no request is
 * held, or the answer is not one the hook can give (keys are typed then; `detail.keysBecause` says why).
 *
 * The request answered is the one the operator was shown, by its id and its input's hash: the one
 * named (`--request`, or the held prompt the screen showed), else the one whose input the pane's
 * dialog shows, else the only one held. Two held and none named or shown is a refusal naming both.
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
  const refused = (why: string) => refuse(why, title, m.paneId);
  const asked = req.request !== undefined ? namedRequest(req.request) : null;
  if (req.request !== undefined && !asked)
    return refused(
      `--request takes a held request's id (<epoch>-<pid>, optionally :<hash>), not "${sanitizeLine(req.request)}"`,
    );
  if (all.length === 0) {
    if (asked)
      return refused(
        `request ${asked.id} is not held for ${m.name}'s pane ${m.paneId} now (answered, or its hold ended)`,
      );
    return null;
  }
  // The prompt shown: the pane's own dialog, or a held request standing in for it.
  // What the operator saw (`detail.expect`: the request's signature, or the screen's), and the
  // dialog the pane draws now, which the request answered must be.
  // A held prompt counts as shown only when the operator's own screen sent it (`expect`): the CLI's
  // snapshot standing the oldest request in for a dialog is not one the operator chose.
  const shownHeld = req.expect?.startsWith('held:') ? namedRequest(req.expect) : null;
  const dialog = req.seen && !req.seen.signature.startsWith('held:') ? req.seen : null;
  const named = asked ?? shownHeld;
  if (asked && shownHeld && (asked.id !== shownHeld.id || !sameHashes(asked.hash, shownHeld.hash)))
    return refused(`request ${asked.id} is not the one ${m.name}'s prompt shows (${shownHeld.id})`);
  let pick = all;
  if (named) {
    pick = all.filter((r) => r.id === named.id);
    if (pick.length === 0)
      return refused(
        `request ${named.id} is no longer held for ${m.name}'s pane ${m.paneId} (held now: ${heldList(all)})`,
      );
    if (!sameHash(pick[0]!, named.hash))
      return refused(
        `request ${named.id}'s input is not the one shown (its hash is ${pick[0]!.hash?.slice(0, 12) ?? 'unknown'} now, not ${named.hash}): nothing answered`,
      );
  }
  // Where the pane draws a dialog too, the request answered must be the one it draws.
  if (dialog) {
    const tied = pick.filter((r) => tiedToDialog(r, dialog));
    if (tied.length === 0) {
      if (named)
        return refused(
          `${m.name}'s pane shows a dialog that is not request ${named.id}'s (${heldAbout(pick[0]!)}): answer the one on screen, or name it`,
        );
      const unreadable = pick.find((r) => r.unreadable);
      if (unreadable)
        return refused(
          `${m.name}'s permission request ${unreadable.id} is held by tower's hook, but its input cannot be shown whole (${unreadable.unreadable}), so tower cannot tell it from the dialog on screen: answer in the agent's own dialog, which shows when the hold ends (${new Date(unreadable.until).toISOString()})`,
        );
      // None of the held requests is the dialog on screen: the dialog shown is answered by keys.
      detail.keysBecause = `the dialog on screen is none of the requests held for the pane (${heldList(all)})`;
      return null;
    }
    pick = tied;
  }
  if (pick.length > 1)
    return refused(
      `${pick.length} permission requests are held for ${m.name}'s pane ${m.paneId}: ${heldList(pick)}; name the one you mean: tower answer ${runId} --member ${m.name} --request ID ${detail.choice}`,
    );
  const held = pick[0]!;
  if (held.unreadable)
    return refused(
      `${m.name}'s permission request ${held.id} is held by tower's hook, but its input cannot be shown whole (${held.unreadable}): answer it in the agent's own dialog, which shows when the hold ends (${new Date(held.until).toISOString()})`,
    );
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
      `${held.file} and what ${m.paneId} shows first: the answer is written only while request ${requestRef(held)} is still held with this very input (its hash), and its dialog (Claude Code draws one too) was not answered in the pane already: the first answer wins`,
    ),
    createEffect(held.answerFile, `${way.behavior}\n`),
    waitEffect(`until ${new Date(held.until).toISOString()} (the hold's end) for the hook to take the answer`),
  ];
  const also = others.length > 0 ? `; also held for the pane, not answered: ${heldList(others)}` : '';
  return {
    refusal: null,
    title: `Answer through the hook: ${way.behavior} ${heldAbout(held)} for ${who} of ${runId} (${m.paneId}), request ${requestRef(held)}; its dialog in the pane is open too: the first answer wins${also}`,
    target: m.paneId,
    effects,
    detail,
    destructive: true,
    approves: approvedLines(held),
    pin: { request: `${held.id}:${held.hash}` },
  };
}

/** Two hashes naming the same input (either may be a prefix), or either not given. */
function sameHashes(a: string | null, b: string | null): boolean {
  return a === null || b === null || a.startsWith(b) || b.startsWith(a);
}

/** What an answer approves, whole: the request, its hash, and its input one field (one command part) a line. */
export function approvedLines(r: HeldRequest): string[] {
  const marked = r.marked > 0 ? ` (${r.marked} hidden or look-alike character(s) written out as ⟨U+XXXX⟩)` : '';
  return [
    `request ${r.id}, tool ${r.tool ?? 'unknown'}, input sha256 ${r.hash ?? 'unknown'}${marked}:`,
    ...(r.whole ?? '').split('\n').map((l) => `  ${l}`),
  ];
}

/** What a held request is about: `Bash: npm test`. */
function heldAbout(r: HeldRequest): string {
  return [r.tool, r.subject].filter(Boolean).join(': ') || `request ${r.id}`;
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
    because: `option ${choice}${label ? ` (${label})` : ''} is neither a plain yes nor no, and the hook answers only allow or deny`,
  };
}

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
      message: `request ${h.id} of ${d.member} holds another input than the one shown (sha256 ${still.hash?.slice(0, 12) ?? 'unknown'} now, ${h.hash?.slice(0, 12) ?? 'none'} planned): nothing written`,
    };
  // The member's pane must still be the one the operator saw: a request is answered for that agent only.
  await recheckPane(x.env.ctx, { paneId: d.paneId, server: d.server, process: d.process, who: d.member });
  const details = [`through tower's PermissionRequest hook: wrote ${h.answerFile} (${h.behavior})`];
  const unsafe = heldFolderProblem(stateHome(x.env.ctx.env), h.dir);
  if (unsafe) return { status: 'refused', message: `no answer written: ${unsafe}` };
  // Claude Code draws its own dialog while the hook holds the request: both ways are open and the
  // first answer wins. A dialog the operator saw that is gone now was answered there: nothing is
  // written. A dialog the pane shows now must be this request's.
  const shown = readPrompt(await paneScreen(x.env.ctx, d.paneId, d.server));
  if (d.expect !== null && !d.expect.startsWith('held:') && shown?.signature !== d.expect)
    return {
      status: 'refused',
      message: `${d.member}'s dialog for request ${h.id} is no longer shown: it was answered in the pane first (the first answer wins); nothing written`,
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
      message: `${said} ${d.member}'s permission request through the hook (answered ${h.behavior}; request ${requestRef(still)})`,
      details,
      approved: approvedLines(still),
    };
  }
  // The hook is gone without reading it (its hold ended, or Claude Code ended it): take it back.
  await deleteFile(h.dir, h.answerFile).catch(() => false);
  return {
    status: 'failed',
    message: `wrote ${h.behavior} for ${d.member}'s held request ${h.id} but the hook did not take it before its hold ended; the agent shows its own dialog now: answer again`,
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
