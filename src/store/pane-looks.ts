/** What the preview reads a pane through, on this box or another one. */
import type { AgentId, Member, Run } from '../model/model.js';
import type { PaneReading } from './pane-reading.js';
import type { PanePrompt } from './prompt-reading.js';

/** What tower last saw in one pane. */
export interface PaneLook {
  /** The capture with its SGR escapes (the preview sanitizes it as it draws). */
  text: string;
  reading: PaneReading;
  /** The prompt the pane shows when it asks a question (its options, for answering from tower). */
  prompt?: PanePrompt | null;
  /** When the reading's activity began, epoch ms. */
  since: number;
  /** When the text last changed (0: not seen changing yet), epoch ms. */
  movedAt: number;
  /** The agent CLI the pane runs (`unknown`: not a shell, not a CLI tower knows); null: a shell; absent: not told. */
  agent?: AgentId | null;
  /** The pane's first process when captured (`#{pane_pid}`): what a CLI's own sources tie its state to. */
  pid?: number;
}

export interface PaneLooks {
  subscribe(listener: () => void): () => void;
  /** Moves whenever anything a preview shows changed. */
  getVersion(): number;
  /** The run whose panes are captured on every tick (the selected one). */
  focus(runId: string | null): void;
  /** The member whose pane the preview shows now (null: none): only that pane streams (none without this). */
  preview?(run: Run | null, member: Member | null): void;
  /** What was last seen of a member's pane (of `run`'s box), or undefined. */
  lookOf(m: Member, run?: Run | null): PaneLook | undefined;
  /** Why a member's pane cannot be previewed at all (an older box), or null. */
  previewNote?(run: Run | null): string | null;
}
