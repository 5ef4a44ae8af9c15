/**
 * tower acting on the real CLI in a test: an action world (test/actions/kit.ts) whose tmux client
 * is the CLI's own server, noting every send-keys it makes, so a test can say which keys tower typed
 * into the CLI's pane and when (or that it typed none).
 */
import { TmuxClient } from '../../../src/tmux/client.js';
import { actionWorld } from '../../actions/kit.js';
import type { ActionWorld } from '../../actions/kit.js';
import { tempDir } from '../box.js';
import type { ClaudeRun } from './launch.js';

/** A tmux client noting each send-keys it runs and when. */
export class NotingClient extends TmuxClient {
  sent: { at: number; args: readonly string[] }[] = [];
  override async run(args: readonly string[], opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<string> {
    if (args[0] === 'send-keys') this.sent.push({ at: Date.now(), args });
    return super.run(args, opts);
  }
}

/** An action world on the CLI's tmux server (state in a temp dir named after `prefix`), and its noting client. */
export function actingWorld(
  run: Pick<ClaudeRun, 'socketPath'>,
  prefix: string,
): { w: ActionWorld; tmux: NotingClient } {
  const w = actionWorld('unused', tempDir(prefix));
  const tmux = new NotingClient({ path: run.socketPath }, 5000);
  w.ctx.tmux = tmux;
  return { w, tmux };
}
