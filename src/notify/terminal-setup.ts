/**
 * What notifications change on the operator's terminal while tower runs, and put back on exit:
 * the title (outside tmux pushed on the terminal's title stack; inside tmux read from
 * `#{pane_title}` and set again), and tmux's `allow-passthrough` for tower's own pane, without
 * which tmux drops desktop notifications.
 */
import { TmuxClient } from '../tmux/client.js';
import { RESTORE_TITLE, SAVE_TITLE, titleBytes } from './bytes.js';
import type { NotifyConfig } from '../config/notify.js';

/** The tmux server and pane tower runs in, from $TMUX and $TMUX_PANE, or null outside tmux. */
export function ownPane(env: NodeJS.ProcessEnv): { client: TmuxClient; pane: string } | null {
  const socket = env.TMUX?.split(',')[0];
  const pane = env.TMUX_PANE;
  if (!socket || !pane) return null;
  return { client: new TmuxClient({ path: socket }, 2000), pane };
}

/** Prepares the terminal; resolves to the function that restores it (safe to call once). */
export async function prepareTerminal(
  config: NotifyConfig,
  env: NodeJS.ProcessEnv,
  write: (bytes: string) => void,
): Promise<() => Promise<void>> {
  const own = ownPane(env);
  if (!own) {
    if (config.title) write(SAVE_TITLE);
    return async () => {
      if (config.title) write(RESTORE_TITLE);
    };
  }
  const { client, pane } = own;
  const title = config.title ? await client.displayMessage(pane, '#{pane_title}').catch(() => null) : null;
  let passthrough: string | null = null;
  if (config.desktop) {
    try {
      passthrough = (await client.run(['show-options', '-p', '-t', pane, '-v', 'allow-passthrough'])).trim();
      await client.run(['set-option', '-p', '-t', pane, 'allow-passthrough', 'on']);
    } catch {
      // An old tmux without the option: notifications may not get through, nothing to restore.
      passthrough = null;
    }
  }
  return async () => {
    if (title !== null) write(titleBytes(title));
    if (passthrough === null) return;
    const back =
      passthrough === ''
        ? ['set-option', '-p', '-u', '-t', pane, 'allow-passthrough']
        : ['set-option', '-p', '-t', pane, 'allow-passthrough', passthrough];
    await client.run(back).catch(() => {});
  };
}
