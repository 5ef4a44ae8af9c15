/**
 * Typing into an agent's pane the way its CLI takes it (its module's `typing`): the keys of a
 * choice, a line and its submit. Each call goes to the pane's own server; literal text always
 * through the client's own literal send.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context/context.js';
import type { AgentWays, SendKeys } from '../agents/types.js';
import { paneClient } from './pane-client.js';

/** Types the agent's way: each call's keys as one `send-keys`, literal text through the client's own. */
export async function typeKeys(
  ctx: AppContext,
  target: string,
  server: string | null | undefined,
  calls: readonly SendKeys[],
): Promise<void> {
  const tmux = paneClient(ctx, server);
  for (const keys of calls) {
    if (keys[0] === '-l' && keys[1] === '--' && keys.length === 3) await tmux.sendText(target, keys[2]!);
    else await tmux.run(['send-keys', '-t', target, ...keys]);
  }
}

/** Puts `text` into the pane as one bracketed paste, through a buffer of its own that the paste deletes. */
export async function pasteText(
  ctx: AppContext,
  target: string,
  server: string | null | undefined,
  text: string,
): Promise<void> {
  const tmux = paneClient(ctx, server);
  const buffer = `tower-${randomUUID()}`;
  await tmux.run(['set-buffer', '-b', buffer, '--', text]);
  await tmux.run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', target]);
}

/** Types a line and submits it, as the CLI takes one: pasted whole then its submit keys, or its own keys. */
export async function typeLine(
  ctx: AppContext,
  target: string,
  server: string | null | undefined,
  text: string,
  ways: AgentWays,
): Promise<void> {
  const submit = ways.typing.submitAfterPaste;
  if (submit) {
    await pasteText(ctx, target, server, text);
    await typeKeys(ctx, target, server, submit);
  } else await typeKeys(ctx, target, server, ways.typing.line(text));
}
