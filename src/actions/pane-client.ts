/**
 * The tmux server a member's pane is on: tower's own (ctx.tmux), or the Claude Code swarm server
 * the snapshot found it on. Every action that touches a pane asks here, so a `%N` is never sent a
 * key or a signal on another server than the one that holds the member's pane.
 */
import type { AppContext } from '../context/context.js';
import type { TmuxClient } from '../tmux/client.js';
import path from 'node:path';
import { ActionStop, isPaneGone } from '../kit/execution.js';
import { sanitize } from '../text/sanitize.js';
import { socketFile } from '../tmux/client.js';
import { tmuxSocketDir, trustedSwarmClient } from '../tmux/swarm.js';

/** The client of a pane's server (null: tower's own); throws on a server name that is not a swarm socket's. */
export function paneClient(ctx: AppContext, server: string | null | undefined): TmuxClient {
  if (!server) return ctx.tmux;
  // The folder and the socket are checked again here: an action never reaches a socket it may not trust.
  const client = trustedSwarmClient(ctx.env, server, ctx.tmux.timeoutMs);
  if (!client) throw new Error(`"${server}" is not a Claude Code swarm server's socket name`);
  return client;
}

/** Said after a pane id in titles and messages: ` on claude-swarm-1234`, or nothing for tower's own server. */
export function onServer(server: string | null | undefined): string {
  return server ? ` on ${server}` : '';
}

/** The socket file of a pane's server (null: tower's own), as the hook names it from `$TMUX`. */
export function serverSocket(ctx: AppContext, server: string | null | undefined): string {
  return server ? path.join(tmuxSocketDir(ctx.env), server) : socketFile(ctx.tmux.socket, ctx.env);
}

/** The pane's screen as text (on its own server); a pane that is gone is a failure saying so. */
export async function paneScreen(ctx: AppContext, paneId: string, server: string | null | undefined): Promise<string> {
  try {
    return sanitize(await paneClient(ctx, server).capturePane(paneId, 60));
  } catch (err) {
    if (isPaneGone(err)) throw new ActionStop('failed', `pane ${paneId} is gone (${(err as Error).message})`);
    throw err;
  }
}
