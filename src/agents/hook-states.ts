/**
 * What other CLIs' own hook events mean, for the hook-events reader: each registered CLI's
 * `hookState` that has one, listed here by itself so that reading the events file (on every start
 * path, `tower status` included) loads these few functions and never a CLI's whole module. A test
 * holds this list equal to the registry's `hookState`s.
 */
import type { Activity } from '../model/values.js';
import type { AgentCue } from './types.js';
import { stateOfGeminiEvent } from './gemini-cli/hooks.js';

/** What one hook event says the agent is doing, by some CLI's own names, or null. */
export type HookState = (
  event: string,
  notificationType: string | null,
) => { activity: Activity; cue: AgentCue } | null;

/** Every CLI's own reading of hook events, beside Claude Code's (store/hook-events.ts). */
export const HOOK_STATES: readonly HookState[] = [stateOfGeminiEvent];
