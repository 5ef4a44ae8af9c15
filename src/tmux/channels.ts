/**
 * The control clients tower keeps attached that run a command on their server without a process
 * of its own (src/tmux/control-channel.ts), by the server's socket file: every client of that
 * server finds the one attached. Loaded by every start (src/tmux/client.ts asks it); what a
 * channel does loads with the control client.
 */
import type { ControlChannel } from './control-channel.js';

/** The control clients offered for running commands (src/tmux/control-channel.ts), by socket file. */
const channels = new Map<string, ControlChannel>();

/** The channel attached to the server whose socket file this is, if any. */
export function channelOf(file: string): ControlChannel | undefined {
  return channels.get(file);
}

/** Offers a channel for its server; the returned function withdraws it (only it, if another came since). */
export function offerChannel(file: string, channel: ControlChannel): () => void {
  channels.set(file, channel);
  return () => {
    if (channels.get(file) === channel) channels.delete(file);
  };
}
