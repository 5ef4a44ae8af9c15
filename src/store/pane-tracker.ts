/**
 * What the live store keeps of the tmux polls: the last pane list (for discovery by cwd), the
 * liveness it implies, and the tmux problem. A server that does not answer makes liveness unknown,
 * as the problem says: never the last list's "alive".
 */
import type { Problem } from '../model/model.js';
import type { PaneInfo } from '../tmux/client.js';
import type { SwarmServer } from '../tmux/swarm.js';
import { indexPanes, livenessKey } from './liveness.js';
import type { PaneIndex } from './liveness.js';

/** The liveness key while tmux does not answer. */
const UNANSWERED = 'unanswered';

/** What one poll changed. */
export interface PaneChange {
  /** Liveness or the tmux problem changed: the snapshot must be assembled again. */
  assemble: boolean;
  /** Pane working directories changed: roots must be discovered again. */
  rediscover: boolean;
  /** The new liveness index (null: unknown), when it changed. */
  index?: PaneIndex | null;
}

export class PaneTracker {
  /** The last list tmux gave (kept while it does not answer, for discovery by cwd). */
  panes: PaneInfo[] | null = null;
  /** The tmux problem of the last poll, if any. */
  problem: Problem | null = null;
  /** Claude Code's swarm servers of the last poll. */
  swarms: SwarmServer[] = [];
  /** The swarm servers that failed at the last poll (one problem each). */
  swarmProblems: Problem[] = [];
  /** Tower's own server is not running, as of the last poll (null: it is, or tmux failed otherwise). */
  down: Problem | null = null;
  private livenessKey = '';
  private cwdKey = '';

  /**
   * Takes one poll's answer: the panes, or a problem when tmux failed in another way than "no server"; and
   * the swarm servers.
   */
  take(
    panes: PaneInfo[] | null,
    problem: Problem | null,
    swarms: SwarmServer[] = [],
    swarmProblems: Problem[] = [],
    down: Problem | null = null,
  ): PaneChange {
    const change: PaneChange = { assemble: false, rediscover: false };
    if ((down?.message ?? null) !== (this.down?.message ?? null)) change.assemble = true;
    this.down = down;
    if (JSON.stringify(swarmProblems) !== JSON.stringify(this.swarmProblems)) change.assemble = true;
    this.swarmProblems = swarmProblems;
    this.swarms = swarms;
    if (problem) {
      if (this.problem?.message !== problem.message) change.assemble = true;
      this.problem = problem;
      if (this.livenessKey !== UNANSWERED) {
        this.livenessKey = UNANSWERED;
        change.index = null;
        change.assemble = true;
      }
      return change;
    }
    if (this.problem) change.assemble = true;
    this.problem = null;
    const lk = livenessKey(panes, swarms);
    if (lk !== this.livenessKey) {
      this.livenessKey = lk;
      change.index = indexPanes(panes, swarms);
      change.assemble = true;
    }
    this.panes = panes;
    const ck = [...new Set((panes ?? []).map((p) => p.cwd))].sort().join('\n');
    if (ck !== this.cwdKey) {
      this.cwdKey = ck;
      change.rediscover = true;
    }
    return change;
  }
}
