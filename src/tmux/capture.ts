/**
 * Captures of many panes in one tmux call: `display-message` markers around each `capture-pane`,
 * chained with `;`. The markers carry a random nonce made for this call, so nothing a pane prints
 * can forge the boundary between two captures. tmux stops a command sequence at the first failing
 * command: a pane that vanished ends the call there, is reported gone, and the panes after it are
 * captured by one more call.
 */
import { randomHex } from '../text/random.js';
import type { TmuxClient } from './client.js';
import { TmuxError } from './errors.js';

/** What one pane's capture gave: its screen (and scrollback) as text with SGR kept, or gone. */
/** A pane's capture: its text, its foreground command, and its first process (null when tmux did not say). */
export type PaneCapture =
  { ok: true; text: string; command: string; pid?: number | null } | { ok: false; reason: 'gone' };

export interface CaptureOptions {
  /** Lines of scrollback above the visible screen (default 100). */
  history?: number;
  signal?: AbortSignal;
}

/** A fresh marker nonce: 128 random bits, hex (no `%` or `#`, which tmux formats would expand). */
export function newNonce(): string {
  return randomHex(16);
}

/** The tmux argv (after the socket flags) of one capture round of `paneIds`. */
export function captureArgs(paneIds: readonly string[], nonce: string, history: number): string[] {
  const args: string[] = [];
  paneIds.forEach((paneId, i) => {
    if (i > 0) args.push(';');
    // The begin marker also says which process runs in the pane (a shell or an agent), and its first process.
    args.push('display-message', '-p', '-t', paneId, `${nonce}:${i}:b:p#{pane_pid}/#{pane_current_command}`, ';');
    args.push('capture-pane', '-p', '-e', '-t', paneId, '-S', `-${history}`, ';');
    args.push('display-message', '-p', `${nonce}:${i}:e`);
  });
  return args;
}

/**
 * Splits the output of one round. Returns the captures found (by request index) and the index of
 * the pane whose capture began but never ended (the one that failed), or null.
 */
export function parseCaptureOutput(
  stdout: string,
  nonce: string,
  count: number,
): { texts: Map<number, { text: string; command: string; pid: number | undefined }>; broken: number | null } {
  const texts = new Map<number, { text: string; command: string; pid: number | undefined }>();
  const lines = stdout.split('\n');
  let open: number | null = null;
  let body: string[] = [];
  let command = '';
  let pid: number | undefined;
  const marker = new RegExp(`^${nonce}:(\\d+):(b:|e$)(.*)$`);
  for (const line of lines) {
    const m = marker.exec(line);
    if (!m) {
      if (open !== null) body.push(line);
      continue;
    }
    const i = Number(m[1]);
    if (i >= count) continue;
    if (m[2] === 'b:') {
      open = i;
      body = [];
      // `p<pid>/<command>`; a marker without the pid (`<command>` alone) still reads.
      const withPid = /^p(\d{1,10})\/(.*)$/.exec(m[3] ?? '');
      pid = withPid ? Number(withPid[1]) : undefined;
      command = withPid ? (withPid[2] ?? '') : (m[3] ?? '');
    } else if (open === i) {
      texts.set(i, { text: body.join('\n'), command, pid });
      open = null;
    }
  }
  return { texts, broken: open };
}

/**
 * Panes captured per tmux call: tmux refuses a command line past its message size (16 KiB; one pane
 * takes ~200 bytes of it), so a round of more panes is several calls, one after the other.
 */
export const PANES_PER_CALL = 50;

/**
 * Captures every pane in `paneIds` (one tmux call per PANES_PER_CALL panes). A pane that no longer exists is
 * `{ok: false, reason: 'gone'}`; a server that is gone or hangs throws the TmuxError.
 */
export async function capturePanes(
  client: TmuxClient,
  paneIds: readonly string[],
  opts: CaptureOptions = {},
): Promise<Map<string, PaneCapture>> {
  const out = new Map<string, PaneCapture>();
  const all = [...new Set(paneIds)];
  const history = opts.history ?? 100;
  for (let at = 0; at < all.length; at += PANES_PER_CALL) {
    let rest = all.slice(at, at + PANES_PER_CALL);
    while (rest.length > 0) {
      const nonce = newNonce();
      let stdout: string;
      let failed = false;
      try {
        stdout = await client.run(captureArgs(rest, nonce, history), { signal: opts.signal });
      } catch (err) {
        if (!(err instanceof TmuxError) || err.kind !== 'no-such-pane') throw err;
        // The output before the failure is lost with the error: find the missing panes, then go again.
        failed = true;
        stdout = '';
      }
      const { texts } = parseCaptureOutput(stdout, nonce, rest.length);
      for (const [i, { text, command, pid }] of texts) {
        const id = rest[i];
        if (id) out.set(id, { ok: true, text, command, pid });
      }
      if (!failed) {
        for (const id of rest) if (!out.has(id)) out.set(id, { ok: false, reason: 'gone' });
        break;
      }
      rest = await stillThere(client, rest, out, opts.signal);
    }
  }
  return out;
}

/**
 * After a round that failed on a missing pane (tmux keeps no output of a failed sequence): asks
 * for the ids that exist in one call, marks the missing ones gone, and returns the rest to capture.
 */
async function stillThere(
  client: TmuxClient,
  rest: readonly string[],
  out: Map<string, PaneCapture>,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const listed = await client.run(['list-panes', '-a', '-F', '#{pane_id}'], { signal });
  const alive = new Set(listed.split('\n').filter(Boolean));
  const next = rest.filter((id) => alive.has(id));
  // Every pane is there, yet one could not be found: don't go round again.
  if (next.length === rest.length)
    throw new TmuxError('no-such-pane', 'tmux capture-pane: a pane vanished and came back while it was captured', []);
  for (const id of rest) if (!alive.has(id)) out.set(id, { ok: false, reason: 'gone' });
  return next;
}
