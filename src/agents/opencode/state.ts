/**
 * What opencode's server events say its agent is doing, per session: a permission or a question of
 * its question tool waiting is a question (`/session/status` still says busy then), busy is working, idle is waiting at the input
 * box. And its context: the last assistant message's tokens (input, output, reasoning, cache) over
 * the model's `limit.context`, as the CLI itself counts it (its sidebar's "1,220 tokens · 1% used").
 */
import type { Activity } from '../../model/values.js';
import type { AgentUsage } from '../types.js';
import type { Permission, QuestionRequest, ServerEvent } from './server.js';

/** The most sessions and waiting requests followed per server. */
const MAX_SESSIONS = 200;
const MAX_WAITING = 50;

type Tokens = NonNullable<Extract<ServerEvent, { type: 'message.updated' }>['properties']['info']['tokens']>;

/** One server's sessions, followed from its events. */
export class OpencodeState {
  private status = new Map<string, 'busy' | 'idle'>();
  private waiting = new Map<string, Permission>();
  private questions = new Map<string, QuestionRequest>();
  private tokens = new Map<string, { tokens: Tokens; model: string | null }>();
  /** Whether the server's own list of busy sessions was read: an idle server then says so though no event came. */
  private known = false;

  /** Takes one event. */
  apply(e: ServerEvent): void {
    switch (e.type) {
      case 'session.status':
        this.setStatus(e.properties.sessionID, e.properties.status.type === 'idle' ? 'idle' : 'busy');
        return;
      case 'session.idle':
        this.setStatus(e.properties.sessionID, 'idle');
        return;
      case 'permission.asked':
        if (this.waiting.size < MAX_WAITING) this.waiting.set(e.properties.id, e.properties);
        return;
      case 'permission.replied':
        this.waiting.delete(e.properties.requestID);
        return;
      case 'question.asked':
        if (this.questions.size < MAX_WAITING) this.questions.set(e.properties.id, e.properties);
        return;
      case 'question.replied':
      case 'question.rejected':
        this.questions.delete(e.properties.requestID);
        return;
      case 'message.updated':
        if (
          e.properties.info.role === 'assistant' &&
          e.properties.info.tokens &&
          // A message just begun reports all zeros: the context is still the one before it.
          usedOf(e.properties.info.tokens) > 0 &&
          this.sessionRoom(e.properties.sessionID)
        )
          this.tokens.set(e.properties.sessionID, {
            tokens: e.properties.info.tokens,
            model:
              e.properties.info.providerID && e.properties.info.modelID
                ? `${e.properties.info.providerID}/${e.properties.info.modelID}`
                : null,
          });
        return;
    }
  }

  /** Replaces the waiting requests with the server's own list (after a reconnect, events may have been missed). */
  setWaiting(list: readonly Permission[]): void {
    this.waiting = new Map(list.slice(0, MAX_WAITING).map((p) => [p.id, p]));
  }

  /** Replaces the questions waiting with the server's own list (`GET /question`). */
  setQuestions(list: readonly QuestionRequest[]): void {
    this.questions = new Map(list.slice(0, MAX_WAITING).map((q) => [q.id, q]));
  }

  /** The questions waiting, oldest first. */
  pendingQuestions(): QuestionRequest[] {
    return [...this.questions.values()];
  }

  /** Replaces the sessions' status with the server's own (`GET /session/status`: a session not listed is idle). */
  setStatuses(busy: ReadonlyMap<string, string>): void {
    for (const id of this.status.keys()) if (!busy.has(id)) this.status.set(id, 'idle');
    for (const [id, type] of busy) this.setStatus(id, type === 'idle' ? 'idle' : 'busy');
    this.known = true;
  }

  /** The requests waiting, oldest first. */
  pending(): Permission[] {
    return [...this.waiting.values()];
  }

  /**
   * What the agent is doing across its sessions: a request or question waiting first, then busy, then idle; null when no
   * event said.
   */
  activity(): { activity: Activity; cue: 'question' | 'interrupt-hint' | 'prompt' } | null {
    if (this.waiting.size > 0 || this.questions.size > 0) return { activity: 'waiting', cue: 'question' };
    const all = [...this.status.values()];
    if (all.includes('busy')) return { activity: 'working', cue: 'interrupt-hint' };
    if (all.length > 0 || this.known) return { activity: 'waiting', cue: 'prompt' };
    return null;
  }

  /**
   * The context of a session (or the one last reported) against the model's window: `window` a
   * number, or the window of the model the message names.
   */
  usage(window: number | ((model: string | null) => number | null), sessionID?: string): AgentUsage | null {
    const t = sessionID ? this.tokens.get(sessionID) : [...this.tokens.values()].at(-1);
    if (!t) return null;
    const w = typeof window === 'number' ? window : window(t.model);
    return w === null ? null : usageOf(t.tokens, w);
  }

  private sessionRoom(id: string): boolean {
    // A session reported again moves to the end: the last one reported is the one shown.
    this.tokens.delete(id);
    if (this.tokens.size >= MAX_SESSIONS) this.tokens.delete(this.tokens.keys().next().value!);
    return true;
  }

  private setStatus(id: string, s: 'busy' | 'idle'): void {
    if (!this.status.has(id) && this.status.size >= MAX_SESSIONS) this.status.delete(this.status.keys().next().value!);
    this.status.set(id, s);
  }
}

/** All of a message's tokens, as opencode's sidebar counts them. */
function usedOf(t: Tokens): number {
  return t.input + t.output + (t.reasoning ?? 0) + (t.cache?.read ?? 0) + (t.cache?.write ?? 0);
}

/** An assistant message's tokens against the model's context window, as opencode counts them. */
export function usageOf(t: Tokens, window: number): AgentUsage | null {
  if (!(window > 0)) return null;
  const cacheRead = t.cache?.read ?? 0;
  const cacheWrite = t.cache?.write ?? 0;
  const used = usedOf(t);
  return {
    used,
    window,
    usedPct: Math.min(100, Math.round((used / window) * 100)),
    tokens: { input: t.input, output: t.output, cacheRead, cacheWrite },
  };
}
