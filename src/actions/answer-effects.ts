/**
 * The effects an answer or a line typed to an agent plans: the very tmux calls its CLI's keys make,
 * on the pane's own server, as the dry run and the confirm dialog show them.
 */
import type { AppContext } from '../context/context.js';
import type { AgentCli, SendKeys } from '../agents/types.js';
import { checkEffect, seconds, tmuxEffect, waitEffect } from '../kit/effects.js';
import type { PromptOption } from '../store/prompt-reading.js';
import { literalArg } from '../tmux/client.js';
import { paneClient } from './pane-client.js';

/** The tmux calls of `calls` (a CLI's keys), as typeKeys sends them on the pane's own server. */
function keysEffects(ctx: AppContext, paneId: string, server: string | null, calls: readonly SendKeys[]) {
  const tmux = paneClient(ctx, server);
  return calls.map((k) =>
    tmuxEffect(tmux, [
      'send-keys',
      '-t',
      paneId,
      ...(k[0] === '-l' && k.length === 3 ? ['-l', '--', literalArg(k[2]!)] : k),
    ]),
  );
}

/** The very calls that take `option` in the member's CLI: its keys, or the moves of its selection. */
export function answerEffects(
  ctx: AppContext,
  paneId: string,
  server: string | null,
  cli: AgentCli,
  option: PromptOption,
) {
  const calls = cli.keys.answer(option);
  const select = cli.keys.select;
  if (calls.length > 0 || !select?.takes.includes(option.label)) return keysEffects(ctx, paneId, server, calls);
  const tmux = paneClient(ctx, server);
  return [
    checkEffect(
      `move the selection onto "${option.label}" with ${['tmux', ...tmux.argv(['send-keys', '-t', paneId, ...select.next])].join(' ')}, ` +
        `reading it back from the screen before the next key`,
    ),
    ...keysEffects(ctx, paneId, server, [select.confirm]),
  ];
}

/** The very calls that type `text` and submit it in the member's CLI: pasted whole, or its keys. */
export function lineEffects(
  ctx: AppContext,
  paneId: string,
  server: string | null,
  cli: AgentCli,
  text: string,
  confirmMs: number,
) {
  const submit = cli.keys.submitAfterPaste;
  if (!submit) return keysEffects(ctx, paneId, server, cli.keys.line(text));
  const tmux = paneClient(ctx, server);
  return [
    tmuxEffect(tmux, ['set-buffer', '-b', 'tower-<id>', '--', text]),
    tmuxEffect(tmux, ['paste-buffer', '-p', '-d', '-b', 'tower-<id>', '-t', paneId]),
    ...(cli.keys.submitWhenDrawn ? [waitEffect(`up to ${seconds(confirmMs)} for the input box to show the line`)] : []),
    ...keysEffects(ctx, paneId, server, submit),
  ];
}
