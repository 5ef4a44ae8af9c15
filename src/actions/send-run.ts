/**
 * Running a line's plan (`tower send`), loaded only when a line is sent: the pane checked to be the
 * member's and at its input box, the line typed or pasted the way its CLI takes it, then confirmed
 * as the CLI shows it.
 */
import type { AgentWays } from '../agents/types.js';
import type { AppContext } from '../context/context.js';
import type { SendDetail } from '../kit/detail.js';
import { seconds } from '../kit/effects.js';
import type { Execution } from '../kit/execution.js';
import type { ActionOutcome } from '../kit/types.js';
import { pollUntil } from '../kit/wait.js';
import { pasteText, typeKeys } from './agent-typing.js';
import { guardTyping } from './input-guard.js';
import { paneScreen } from './pane-client.js';
import { recheckPane } from './pane-identity.js';
import { confirmSent, markBeforeSend } from './send-confirm.js';

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
  const ways = await (await import('../agents/ways-for.js')).waysFor(d.agent);
  await recheckPane(ctx, { paneId: d.paneId, server: d.server, process: d.process, who: d.member });
  await guardTyping(ctx, { target: d.paneId, server: d.server, who: d.member }, 'the line', ways);
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
