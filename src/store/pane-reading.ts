/**
 * What a member is doing, read from what its pane shows. Pure.
 *
 * Claude Code always draws its input box, so a prompt at the bottom says nothing by itself. What
 * tells a turn in progress from a finished one is the status line Claude Code draws only while a
 * turn runs: a spinner word with the elapsed time and the hint `esc to interrupt`. When the turn
 * ends that line goes and the input box stays. So: the interrupt hint (or the spinner line) wins;
 * then a question or permission prompt (`Do you want to …?`, `❯ 1. Yes`, `[y/n]`); then output
 * that moved since the last capture; then an agent prompt at the bottom; then a bare shell.
 */
import type { Activity } from '../model/model.js';
import { promptAnswered, readPrompt } from './prompt-reading.js';
import { screenTail } from './screen-tail.js';

export { screenTail } from './screen-tail.js';

/** What the activity was read from (shown in the team pane and carried as `activityCue`). */
export type Cue = 'interrupt-hint' | 'question' | 'output-moving' | 'prompt' | 'shell' | 'silent';

export interface PaneReading {
  activity: Activity;
  cue: Cue;
}

/** Processes that mean "no agent here, a shell". */
const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'fish', 'ksh', 'tcsh', 'csh', 'nu', 'login']);

// Claude Code's status line while a turn runs: `✻ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)`.
const INTERRUPT = /\b(esc|ctrl\+c) to interrupt\b/i;
const SPINNER = /^\s*[·✢✳✶✻✽*⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\s+\S[^(]*…\s*\(\d+m?\s?\d*s\b/;
// A question or a permission prompt: the agent stopped and asks for a decision.
const QUESTION = [
  /\bDo you want to\b[^?]*\?/i,
  /^\s*(│\s*)?[❯>]\s*1\.\s+Yes\b/,
  /\[y\/n\]|\(y\/n\)/i,
  /^\s*│?\s*Would you like to\b[^?]*\?/i,
];
/**
 * A teammate's pane while its lead's pane shows the teammate's permission request (Claude Code
 * 2.1.332: a box `✻ Waiting for team lead approval`, the tool, the action, `Permission request sent
 * to team "…" leader`); no PermissionRequest hook fires in the teammate.
 */
const LEAD_APPROVAL = /^\s*(│\s*)?\S?\s*Waiting for team lead approval\b/;
// An agent's own input prompt at the bottom (Claude Code's box holds `> ` or `❯ `).
const PROMPT = /^\s*(│\s*)?[❯>]\s?/;

/**
 * Reads one pane. `plain` is its screen without escape sequences, `moved` whether it differs from
 * the previous capture, `command` the pane's foreground process (`#{pane_current_command}`).
 */
export function readPane(plain: string, moved: boolean, command: string): PaneReading {
  const tail = screenTail(plain);
  // A teammate whose permission request waits in its lead's dialog keeps its spinner and interrupt hint.
  if (screenTail(plain, 24).some((l) => LEAD_APPROVAL.test(l))) return { activity: 'waiting', cue: 'question' };
  if (tail.some((l) => INTERRUPT.test(l) || SPINNER.test(l))) return { activity: 'working', cue: 'interrupt-hint' };
  // A dialog read whole (its options joined however they wrapped), else a question near the bottom;
  // a prompt with output below it was answered (the agent went on): not a question any more.
  if (readPrompt(plain)) return { activity: 'waiting', cue: 'question' };
  const bottom = tail.slice(-8);
  if (bottom.some((l) => QUESTION.some((q) => q.test(l))) && !promptAnswered(plain))
    return { activity: 'waiting', cue: 'question' };
  if (moved) return { activity: 'working', cue: 'output-moving' };
  const shell = SHELLS.has(command.replace(/^-/, ''));
  if (!shell && tail.slice(-5).some((l) => PROMPT.test(l))) return { activity: 'waiting', cue: 'prompt' };
  return { activity: 'idle', cue: shell ? 'shell' : 'silent' };
}
