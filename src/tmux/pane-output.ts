/**
 * Hearing one pane print, as it prints: a tmux control-mode client (`tmux -C attach-session`) gets a
 * `%output %N …` notification for every write to a pane of the session it is attached to. Only that
 * these arrive for the followed pane is used (the screen is captured again, as any other capture:
 * the notifications' bytes are never drawn), so a line an agent prints reaches the preview in one
 * capture's time instead of a poll tick's (~1.7 s median on the 2 s tick). The capture itself is
 * asked of the same client (src/tmux/control-capture.ts): no process per capture.
 *
 * The client is attached read-only and ignoring its size (`-r -f ignore-size`): it can type nothing
 * and never resizes the agent's window. pipe-pane would hear the pane too, but a pane has one pipe,
 * which an operator's own logging may hold; a control client takes nothing from anyone.
 * One child process per followed pane; what it writes is read line by line as it comes and never
 * kept past its line (a capture's lines until the capture ends), each line bounded.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { PaneCapture } from './capture.js';
import type { TmuxClient } from './client.js';
import { ControlCaptures } from './control-capture.js';

export interface PaneOutputFollower {
  /** Ends the control client (its stdin closes, then a kill if it lingers). */
  stop(): void;
  /**
   * The pane captured through the control client (`history` lines of scrollback); null when it
   * cannot give one now (not running, a capture already asked, tmux gave none in time).
   */
  capture?(history: number): Promise<PaneCapture | null>;
}

/**
 * Follows `paneId`'s output on the client's server: `onOutput` on each chunk that says the pane
 * wrote, `onEnd` once when the control client ends (the pane or its session gone, tmux gone).
 */
export function followPaneOutput(
  tmux: TmuxClient,
  paneId: string,
  onOutput: () => void,
  onEnd: (why: string) => void,
): PaneOutputFollower {
  const marker = `%output ${paneId} `;
  const captures = new ControlCaptures((line) => {
    if (line.startsWith(marker)) onOutput();
  });
  let child: ChildProcess | null = null;
  let ended = false;
  const end = (why: string) => {
    if (ended) return;
    ended = true;
    captures.cancel();
    onEnd(why);
  };
  try {
    child = spawn('tmux', tmux.argv(['-C', 'attach-session', '-r', '-f', 'ignore-size', '-t', paneId]), {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
  } catch (err) {
    queueMicrotask(() => end(err instanceof Error ? err.message : String(err)));
    return { stop: () => {} };
  }
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => captures.push(chunk));
  child.stdin?.on('error', () => {});
  child.on('error', (err) => end(err.message));
  child.on('close', (code) => end(`the control client ended (${code ?? 'signal'})`));
  let killer: NodeJS.Timeout | null = null;
  const running = child;
  return {
    capture(history: number): Promise<PaneCapture | null> {
      if (ended || captures.busy || !running.stdin?.writable) return Promise.resolve(null);
      const answer = captures.request(paneId, history, (commands) => running.stdin?.write(commands));
      // A capture tmux never closes (an old tmux failing the closing marker) gives way to a process.
      const late = setTimeout(() => captures.cancel(), tmux.timeoutMs);
      return answer.finally(() => clearTimeout(late));
    },
    stop() {
      ended = true;
      captures.cancel();
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      c.stdin?.end();
      killer = setTimeout(() => c.kill('SIGKILL'), 1000);
      killer.unref();
      c.once('close', () => {
        if (killer) clearTimeout(killer);
      });
    },
  };
}
