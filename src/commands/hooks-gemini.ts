/**
 * tower's entries in a Gemini CLI settings file (`~/.gemini/settings.json`, a project's
 * `.gemini/settings.json`). Gemini CLI 0.61.0 takes the same shape as Claude Code (`{"hooks":
 * {"<Event>": [{"matcher": "", "hooks": [{"type": "command", "command": "…"}]}]}}`, the event's JSON
 * on stdin, `$TMUX_PANE` in the environment) under its own eleven event names, warns on the agent's
 * screen for a name it does not know, and shows a running hook's `name` in its status line (the
 * whole command when there is none). The hook line is the same one POSIX sh line as Claude Code's.
 */
import path from 'node:path';
import type { HookFlavour } from './hooks-settings.js';
import { hookCommand } from './hooks-settings.js';

/**
 * Gemini CLI 0.61.0's hook events (its settings schema, `hooks.properties`); each fires in tmux with the JSON
 * on stdin.
 */
export const GEMINI_HOOK_EVENTS = [
  'SessionStart',
  'BeforeAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'BeforeTool',
  'AfterTool',
  'Notification',
  'PreCompress',
  'AfterAgent',
  'SessionEnd',
] as const;

/** The hook's name, which Gemini CLI shows while the hook runs. */
export const GEMINI_HOOK_NAME = 'tower';
/** Gemini CLI's timeout is in milliseconds; the line takes a few. */
const TIMEOUT_MS = 5000;

/** Gemini CLI's settings: its event names, a named hook, no permission request held (it has no such hook). */
export const GEMINI_HOOKS: HookFlavour = {
  cli: 'Gemini CLI',
  events: GEMINI_HOOK_EVENTS,
  holds: false,
  group: () => ({
    matcher: '',
    hooks: [{ name: GEMINI_HOOK_NAME, type: 'command', command: hookCommand(0), timeout: TIMEOUT_MS }],
  }),
};

/**
 * Whether a settings file is Gemini CLI's: a `settings.json` in a `.gemini` folder (the user's or a
 * project's), or the system-wide `/etc/gemini-cli/settings.json`.
 */
export function isGeminiSettings(file: string): boolean {
  const abs = path.resolve(file);
  if (path.basename(abs) !== 'settings.json') return false;
  const dir = path.dirname(abs);
  return path.basename(dir) === '.gemini' || dir === '/etc/gemini-cli';
}
