/**
 * What Gemini CLI 0.61.0's hook events say its agent is doing (tower's hook line writes them to the
 * same events file as Claude Code's: `tower hooks install --settings ~/.gemini/settings.json`). A
 * turn runs from `BeforeAgent` to `AfterAgent`; the permission dialog is a `Notification` with
 * `notification_type: "ToolPermission"`. `BeforeTool` fires before the dialog, so it says working,
 * never that the tool ran; `PreCompress` fires on every turn and says nothing more.
 */
import type { Activity } from '../../model/values.js';

/** What one event says, or null for one that says nothing about it. */
export function stateOfGeminiEvent(
  event: string,
  notificationType: string | null,
): { activity: Activity; cue: 'interrupt-hint' | 'question' | 'prompt' | 'shell' } | null {
  switch (event) {
    case 'BeforeAgent':
    case 'BeforeModel':
    case 'AfterModel':
    case 'BeforeToolSelection':
    case 'BeforeTool':
    case 'AfterTool':
      return { activity: 'working', cue: 'interrupt-hint' };
    case 'Notification':
      return notificationType === 'ToolPermission' ? { activity: 'waiting', cue: 'question' } : null;
    case 'AfterAgent':
    case 'SessionStart':
      return { activity: 'waiting', cue: 'prompt' };
    case 'SessionEnd':
      return { activity: 'idle', cue: 'shell' };
    default:
      return null;
  }
}
