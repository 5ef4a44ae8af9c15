/**
 * Whether Codex's app server says a pane's thread waits on approval, asked once right before a line
 * is typed into it (the guard before typing): the pane's Codex process, its home's `thread/list`
 * (bounded in time), the pane's thread among them as the state source ties it (state.ts
 * `threadOf`). A server that does not answer, or no thread tied, leaves the screen to decide.
 */
import type { PaneAtTyping } from '../types.js';
import { listThreads, type ListResult } from './app-server.js';
import { codexProcessOf, type CodexProcess } from './pane-agent.js';
import { threadOf } from './state.js';

/** How long the guard waits for the app server's list. */
export const GUARD_LIST_MS = 1500;

/** Why the app server says the pane's thread waits on approval, or null. */
export async function codexWaitsForPermission(
  pane: Pick<PaneAtTyping, 'pid'>,
  processOf: (pid: number) => CodexProcess | null = codexProcessOf,
  list: (home: string, timeoutMs: number) => Promise<ListResult> = listThreads,
): Promise<string | null> {
  const proc = processOf(pane.pid);
  if (!proc) return null;
  const listed = await list(proc.home, GUARD_LIST_MS);
  if (!listed.ok) return null;
  const thread = threadOf(proc, listed.threads);
  if (thread?.status.type === 'active' && thread.status.activeFlags?.includes('waitingOnApproval'))
    return `Codex's app server says its thread ${thread.id} is waiting on approval`;
  return null;
}
