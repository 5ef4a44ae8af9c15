/**
 * Whether a line `tower send` typed was taken, confirmed the ways the Claude Code CLI itself shows
 * it: its session file says a turn began after the Enter (`status: busy`), its transcript gained the
 * message, or the input box (the lowest `❯`/`>` line of the pane) no longer holds the line. When
 * none shows within the wait, the line was typed and submitted all the same: the outcome says
 * "sent, not yet confirmed" (never "failed": that would be the opposite of what may well have
 * happened) and asks the operator to look.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context/context.js';
import type { SendDetail } from '../kit/detail.js';
import { seconds } from '../kit/effects.js';
import type { ActionOutcome } from '../kit/types.js';
import { pollUntil } from '../kit/wait.js';
import {
  panePlaceOf,
  readSessionFile,
  sessionFileNames,
  sessionIsLive,
  transcriptFile,
} from '../agents/claude-code/files.js';
import type { ClaudeSession } from '../agents/claude-code/files.js';
import { paneScreen, serverSocket } from './pane-client.js';

/** At most this much of a transcript's growth since the Enter is read for the line. */
const MAX_GROWTH = 1 << 20;

/** What was there before the line was typed: the CLI session in the pane and its transcript's size. */
export interface SendMark {
  /** When the keys went (epoch ms). */
  at: number;
  session: ClaudeSession | null;
  sessionFile: string | null;
  transcript: string | null;
  transcriptSize: number;
}

/** The live Claude Code session whose process sits in `paneId` of the pane's server, if any. */
function sessionInPane(ctx: AppContext, d: SendDetail): { session: ClaudeSession; file: string } | null {
  const socket = serverSocket(ctx, d.server);
  for (const name of sessionFileNames(ctx.claudeDir)) {
    const file = path.join(ctx.claudeDir, 'sessions', name);
    const s = readSessionFile(file, []);
    if (!s || !sessionIsLive(s)) continue;
    const place = panePlaceOf(s.pid);
    if (place && place.paneId === d.paneId && path.resolve(place.socket) === path.resolve(socket))
      return { session: s, file };
  }
  return null;
}

const sizeOf = (file: string | null): number => {
  if (file === null) return 0;
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/** Notes the session and its transcript's size right before the line is typed. */
export function markBeforeSend(ctx: AppContext, d: SendDetail): SendMark {
  const found = sessionInPane(ctx, d);
  const transcript =
    found && found.session.cwd ? transcriptFile(ctx.claudeDir, found.session.cwd, found.session.sessionId) : null;
  return {
    at: Date.now(),
    session: found?.session ?? null,
    sessionFile: found?.file ?? null,
    transcript,
    transcriptSize: sizeOf(transcript),
  };
}

/** Whether the transcript grew since the mark with a record holding the line. */
function transcriptHas(mark: SendMark, text: string): boolean {
  if (mark.transcript === null) return false;
  let fd: number;
  try {
    fd = fs.openSync(mark.transcript, 'r');
  } catch {
    return false;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const from = size < mark.transcriptSize ? 0 : mark.transcriptSize;
    const buf = Buffer.alloc(Math.min(MAX_GROWTH, size - from));
    const n = fs.readSync(fd, buf, 0, buf.length, from);
    // The line as the JSON of a record spells it.
    return buf.subarray(0, n).toString('utf8').includes(JSON.stringify(text).slice(1, -1));
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether the session file says a turn began at or after the mark. */
function turnBegan(mark: SendMark): boolean {
  if (mark.sessionFile === null) return false;
  const now = readSessionFile(mark.sessionFile, []);
  if (!now || now.pid !== mark.session?.pid) return false;
  return now.status === 'busy' && (now.statusAt ?? 0) >= mark.at - 1000;
}

/**
 * Whether the input box is empty of the line: the lowest prompt line on the screen (the input box
 * is drawn below the transcript, which echoes sent lines with the same mark) does not hold it.
 */
export function inputBoxCleared(screen: string, typed: string): boolean {
  const lines = screen
    .split('\n')
    .map((l) => l.replace(/^[\s│┃|]+/, '').trim())
    .filter((l) => l !== '');
  const box = lines.reverse().find((l) => l.startsWith('>') || l.startsWith('❯'));
  return box !== undefined && !box.includes(typed.slice(0, 40));
}

/** Waits for a sign that the line was taken; the outcome of the send either way. */
export async function confirmSent(
  ctx: AppContext,
  d: SendDetail,
  mark: SendMark,
  signal: AbortSignal | undefined,
  /** Whether the CLI's input box no longer holds the line (Claude Code's by default). */
  cleared: (screen: string, typed: string) => boolean = inputBoxCleared,
): Promise<ActionOutcome> {
  const taken = await pollUntil<string>({
    timeoutMs: d.confirmMs,
    intervalMs: 150,
    signal,
    check: async () => {
      if (turnBegan(mark)) return 'its session says a turn began';
      if (transcriptHas(mark, d.text)) return 'its transcript has the line';
      if (cleared(await paneScreen(ctx, d.paneId, d.server), d.text)) return 'it left the input box';
      return null;
    },
  });
  if (taken.status === 'ok')
    return { status: 'done', message: `sent a line to ${d.member} (${d.paneId}): ${taken.value}` };
  if (taken.status === 'cancelled')
    return {
      status: 'cancelled',
      message: `typed the line into ${d.paneId}; cancelled while looking for it to be taken`,
    };
  return {
    status: 'done',
    message:
      `sent, not yet confirmed: typed the line into ${d.paneId} and pressed Enter, but nothing ` +
      `showed it taken within ${seconds(d.confirmMs)}; look at the pane`,
  };
}
