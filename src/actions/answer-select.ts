/**
 * Choosing an option in a dialog whose options are a selection moved by keys (opencode's `Allow
 * once   Allow always   Reject`): the selection shows only in colour, so each step reads a capture
 * with escapes; keys move it one option at a time until it is read on the option asked, and only
 * then, with the dialog read again and still the one shown, is the confirming key typed.
 */
import type { AppContext } from '../context/context.js';
import type { SelectWays, SendKeys } from '../agents/types.js';
import type { ActionOutcome } from '../kit/types.js';
import { pollUntil } from '../kit/wait.js';
import type { PromptOption } from '../store/prompt-reading.js';
import { paneClient } from './pane-client.js';

/** How long one move of the selection gets to show. */
const MOVE_MS = 1500;

/** The pane's screen with its escapes (colours), the last 60 lines. */
async function escapedScreen(ctx: AppContext, paneId: string, server: string | null | undefined): Promise<string> {
  return paneClient(ctx, server).capturePane(paneId, 60, { escapes: true });
}

/**
 * Moves the selection onto `option` and types the confirming key; `stillShown` reads the plain
 * screen right before that (the same dialog, whole). A refusal with what was typed so far otherwise.
 */
export async function selectAndConfirm(
  ctx: AppContext,
  where: { paneId: string; server: string | null | undefined; who: string },
  select: SelectWays,
  option: PromptOption,
  type: (calls: readonly SendKeys[]) => Promise<void>,
  stillShown: () => Promise<ActionOutcome | null>,
  signal?: AbortSignal,
): Promise<ActionOutcome | null> {
  let moves = 0;
  for (;;) {
    const now = select.selected(await escapedScreen(ctx, where.paneId, where.server));
    if (!now)
      return {
        status: 'refused',
        message: `${where.who}'s dialog shows no one option selected that tower can read: ${moves} move(s) typed, nothing taken`,
      };
    if (now.label === option.label) break;
    if (moves >= select.order.length)
      return {
        status: 'failed',
        message: `the selection in ${where.who}'s dialog did not come to ${option.label} after ${moves} moves: nothing taken`,
      };
    await type([select.next]);
    moves++;
    const from = now.label;
    const moved = await pollUntil({
      timeoutMs: MOVE_MS,
      intervalMs: 100,
      ...(signal ? { signal } : {}),
      check: async () => {
        const sel = select.selected(await escapedScreen(ctx, where.paneId, where.server));
        return sel && sel.label !== from ? true : null;
      },
    });
    if (moved.status !== 'ok')
      return {
        status: 'failed',
        message: `the selection in ${where.who}'s dialog did not move from ${from}: nothing taken`,
      };
  }
  const gone = await stillShown();
  if (gone) return gone;
  await type([select.confirm]);
  return null;
}
