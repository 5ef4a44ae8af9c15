/**
 * Whether Gemini CLI's hook events say a pane waits for permission, read right before a line is
 * typed into it (the guard before typing): its newest event is the `Notification` of type
 * `ToolPermission` (hooks.ts reads it as a question), not yet followed by one that ends it (the
 * tool running, the turn ending). Without hooks installed, the screen alone decides.
 */
import type { PaneAtTyping } from '../types.js';

/** Why the pane's newest hook event says it waits for permission, or null. */
export function geminiWaitsForPermission(pane: Pick<PaneAtTyping, 'hook'>): string | null {
  const h = pane.hook;
  return h && h.event === 'Notification' && h.activity === 'waiting' && h.cue === 'question'
    ? 'its Gemini CLI hook events say it waits for permission (a ToolPermission notification, nothing since)'
    : null;
}
