/**
 * Which of the permission requests held for a pane an answer takes: the one the operator was shown,
 * by its id and its input's hash. The one named (`--request`, or the held prompt the control room
 * showed), else the one whose input the pane's dialog shows, else the only one held; two held and
 * none named or shown is a refusal naming both. A request named that is not the dialog on screen
 * is refused; a dialog that is none of them is answered by keys (it is what the pane shows).
 */
import type { Member } from '../model/model.js';
import type { HeldRequest } from '../store/held-requests.js';
import type { PanePrompt } from '../store/prompt-reading.js';
import { sanitizeLine } from '../text/sanitize.js';

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
export function heldList(rs: readonly HeldRequest[]): string {
  return rs.map((r) => `${requestRef(r)} (${heldAbout(r)})`).join('; ');
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
export function heldAbout(r: HeldRequest): string {
  return [r.tool, r.subject].filter(Boolean).join(': ') || `request ${r.id}`;
}

/** Why a request's input cannot be answered through the hook, and where it is answered instead. */
function unreadableWhy(m: Member, r: HeldRequest, more = ''): string {
  return (
    `${m.name}'s permission request ${r.id} is held by tower's hook, but its input cannot be ` +
    `shown whole (${r.unreadable})${more}: answer it in the agent's own dialog, which shows when the ` +
    `hold ends (${new Date(r.until).toISOString()})`
  );
}

/** What the operator named or was shown, and the dialog the pane draws now. */
export interface HeldAsk {
  /** `--request`: `<id>[:<hash>]`. */
  request?: string | undefined;
  /** The prompt the operator's screen showed (its signature), when it sent one. */
  expect?: string | undefined;
  /** The prompt the pane shows now (a held one stands in where it draws none). */
  seen: PanePrompt | null;
  runId: string;
  choice: string;
}

/**
 * The request to answer of `all` (held for `m`'s pane), a refusal (null: none is held and none was
 * named: not an answer through the hook), or why keys are typed instead.
 */
export function chooseHeld(
  all: readonly HeldRequest[],
  m: Member,
  ask: HeldAsk,
): { held: HeldRequest } | { refusal: string | null } | { keysBecause: string } {
  const asked = ask.request !== undefined ? namedRequest(ask.request) : null;
  if (ask.request !== undefined && !asked)
    return {
      refusal:
        `--request takes a held request's id (<epoch>-<pid>, optionally :<hash>), not ` +
        `"${sanitizeLine(ask.request)}"`,
    };
  if (all.length === 0)
    return {
      refusal: asked
        ? `request ${asked.id} is not held for ${m.name}'s pane ${m.paneId} now (answered, or its hold ended)`
        : null,
    };
  // A held prompt counts as shown only when the operator's own screen sent it (`expect`): the CLI's
  // snapshot standing the oldest request in for a dialog is not one the operator chose.
  const shownHeld = ask.expect?.startsWith('held:') ? namedRequest(ask.expect) : null;
  const dialog = ask.seen && !ask.seen.signature.startsWith('held:') ? ask.seen : null;
  const named = asked ?? shownHeld;
  if (asked && shownHeld && (asked.id !== shownHeld.id || !sameHashes(asked.hash, shownHeld.hash)))
    return { refusal: `request ${asked.id} is not the one ${m.name}'s prompt shows (${shownHeld.id})` };
  let pick = [...all];
  if (named) {
    pick = all.filter((r) => r.id === named.id);
    if (pick.length === 0)
      return {
        refusal: `request ${named.id} is no longer held for ${m.name}'s pane ${m.paneId} (held now: ${heldList(all)})`,
      };
    if (!sameHash(pick[0]!, named.hash))
      return {
        refusal:
          `request ${named.id}'s input is not the one shown (its hash is ` +
          `${pick[0]!.hash?.slice(0, 12) ?? 'unknown'} now, not ${named.hash}): nothing answered`,
      };
  }
  // Where the pane draws a dialog too, the request answered must be the one it draws.
  if (dialog) {
    const tied = pick.filter((r) => tiedToDialog(r, dialog));
    if (tied.length === 0) {
      if (named)
        return {
          refusal:
            `${m.name}'s pane shows a dialog that is not request ${named.id}'s ` +
            `(${heldAbout(pick[0]!)}): answer the one on screen, or name it`,
        };
      const unreadable = pick.find((r) => r.unreadable);
      if (unreadable)
        return { refusal: unreadableWhy(m, unreadable, ', so tower cannot tell it from the dialog on screen') };
      return { keysBecause: `the dialog on screen is none of the requests held for the pane (${heldList(all)})` };
    }
    pick = tied;
  }
  if (pick.length > 1)
    return {
      refusal:
        `${pick.length} permission requests are held for ${m.name}'s pane ${m.paneId}: ` +
        `${heldList(pick)}; name the one you mean: tower answer ${ask.runId} --member ${m.name} ` +
        `--request ID ${ask.choice}`,
    };
  const held = pick[0]!;
  return held.unreadable ? { refusal: unreadableWhy(m, held) } : { held };
}
