/**
 * The own sources of state (a server, a log of the turn) of each CLI some pane runs, for the
 * captures: made when a pane first runs a CLI that has some, asked only while such a pane exists,
 * forgotten when none does. Loaded with the agent modules, never on a start path.
 */
import type { Member } from '../model/model.js';
import type { AgentId } from '../model/values.js';
import { agentCli, waysOf } from './registry.js';
import type { AgentPane, AgentState, AgentStateSource } from './types.js';

/** The most characters of a source's own failure shown on its problem row. */
const FAILURE_CHARS = 200;

export class AgentSources {
  private sources = new Map<AgentId, AgentStateSource>();
  private failures: string[] = [];

  /**
   * Asks each CLI's sources about the panes (by key, with their CLI and first process) that run it
   * now; whether anything they say changed. Never throws: a source that fails is dropped (its panes
   * are read from their screens) and says so in `problems`.
   */
  async refresh(panes: Iterable<[string, { agent?: AgentId | null; pid?: number }]>, now: number): Promise<boolean> {
    const byAgent = new Map<AgentId, AgentPane[]>();
    for (const [key, p] of panes) {
      if (!p.agent || p.agent === 'unknown' || p.pid === undefined) continue;
      byAgent.set(p.agent, [...(byAgent.get(p.agent) ?? []), { key, pid: p.pid }]);
    }
    let changed = false;
    for (const id of this.sources.keys())
      if (!byAgent.has(id)) {
        this.sources.delete(id);
        changed = true;
      }
    const failures: string[] = [];
    for (const [id, list] of byAgent) {
      let source = this.sources.get(id);
      if (!source) {
        const cli = agentCli(id);
        const ways = cli ? await waysOf(cli) : null;
        if (!ways?.state) continue;
        this.sources.set(id, (source = ways.state()));
      }
      try {
        if (await source.refresh(list, now)) changed = true;
      } catch (err) {
        this.sources.delete(id);
        failures.push(`${id} state: ${(err instanceof Error ? err.message : String(err)).slice(0, FAILURE_CHARS)}`);
      }
    }
    if (failures.join('\n') !== this.failures.join('\n')) changed = true;
    this.failures = failures;
    return changed;
  }

  /** What the own source of a pane's CLI says of it, or null. */
  stateOf(agent: AgentId | null | undefined, key: string): AgentState | null {
    return agent ? (this.sources.get(agent)?.stateOf(key) ?? null) : null;
  }

  /**
   * What the own source of a pane's CLI says, as a member's activity; null when it says nothing. A
   * rollout's "working" is older than a dialog the screen shows now (`cue`; nothing in a rollout
   * marks one): the screen's question wins over it, as over a hook's.
   */
  activityOf(
    agent: AgentId | null | undefined,
    key: string,
    cue: string | undefined,
  ): Pick<Member, 'activity' | 'activitySince' | 'activityCue' | 'activitySource'> | null {
    const s = this.stateOf(agent, key);
    if (!s || (s.source === 'rollout' && s.activity === 'working' && cue === 'question')) return null;
    return {
      activity: s.activity,
      activitySince: s.since === null ? null : new Date(s.since).toISOString(),
      activityCue: s.cue,
      activitySource: s.source,
    };
  }

  /** What the sources could not read, one line each. */
  problems(): string[] {
    return [...this.failures, ...[...this.sources.values()].flatMap((s) => s.problems)];
  }
}
