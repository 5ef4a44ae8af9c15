/**
 * tower's entries in a Claude Code settings file, as data: what `tower hooks install` adds and
 * `uninstall` takes away. Claude Code's shape: `{"hooks": {"<Event>": [{"matcher": "", "hooks":
 * [{"type": "command", "command": "…"}]}]}}`. tower adds one group per event holding its one command,
 * recognised by the marker at its end; nothing else of the file is touched, and an event list or a
 * `hooks` object tower created is removed again when it holds nothing else.
 */

/** The events whose hooks say what an agent is doing (Claude Code's hook reference). */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PermissionRequest',
  'Notification',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionEnd',
  'TeammateIdle',
  'TaskCompleted',
] as const;

/** What marks tower's own command among the operator's hooks. */
export const MARKER = '# tower-hook';
/** The events file is started afresh past this size (the previous one kept as `.1`). */
export const EVENTS_FILE_LIMIT = 1024 * 1024;
/** At most this much of one event's JSON is kept (a tool's output can be huge). */
export const EVENT_BYTES = 16 * 1024;

/**
 * The hook itself: one POSIX sh line, no Node start per event. It appends the time, the agent's
 * tmux pane ($TMUX_PANE) and the event's JSON (one line, cut at EVENT_BYTES) to
 * `$XDG_STATE_HOME/tower/hooks/events`, rotating the file past EVENTS_FILE_LIMIT.
 */
export function hookCommand(): string {
  return [
    'd="${XDG_STATE_HOME:-$HOME/.local/state}/tower/hooks"; f="$d/events";',
    'mkdir -p "$d" &&',
    `{ [ "$(wc -c <"$f" 2>/dev/null || echo 0)" -le ${EVENTS_FILE_LIMIT} ] || mv -f "$f" "$f.1"; } &&`,
    `{ printf '%s\\t%s\\t' "$(date +%s)" "\${TMUX_PANE:-}"; tr -d '\\n\\r' | head -c ${EVENT_BYTES}; echo; } >>"$f"`,
    MARKER,
  ].join(' ');
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function isOurs(group: unknown): boolean {
  if (!isObj(group) || !Array.isArray(group.hooks)) return false;
  return group.hooks.length > 0 && group.hooks.every((h) => isObj(h) && typeof h.command === 'string' && h.command.trimEnd().endsWith(MARKER));
}

/** The events whose lists hold tower's entry. */
export function installedEvents(settings: Json): string[] {
  const hooks = settings.hooks;
  if (!isObj(hooks)) return [];
  return Object.keys(hooks).filter((e) => Array.isArray(hooks[e]) && (hooks[e] as unknown[]).some(isOurs));
}

/** The settings with tower's entry in every event (once), and the events it was added to. */
export function withHooks(settings: Json): { settings: Json; added: string[] } | { refusal: string } {
  if (settings.hooks !== undefined && !isObj(settings.hooks)) return { refusal: '"hooks" in the settings file is not an object; tower leaves it as it is' };
  const hooks: Json = { ...((settings.hooks as Json | undefined) ?? {}) };
  const added: string[] = [];
  for (const event of HOOK_EVENTS) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list)) return { refusal: `"hooks.${event}" is not a list; tower leaves it as it is` };
    if ((list ?? []).some(isOurs)) continue;
    hooks[event] = [...(list ?? []), { matcher: '', hooks: [{ type: 'command', command: hookCommand() }] }];
    added.push(event);
  }
  return { settings: { ...settings, hooks }, added };
}

/** The settings without tower's entries, and the events they were removed from. */
export function withoutHooks(settings: Json): { settings: Json; removed: string[] } {
  if (!isObj(settings.hooks)) return { settings, removed: [] };
  const hooks: Json = { ...settings.hooks };
  const removed: string[] = [];
  for (const event of Object.keys(hooks)) {
    const list = hooks[event];
    if (!Array.isArray(list) || !list.some(isOurs)) continue;
    const rest = list.filter((g) => !isOurs(g));
    removed.push(event);
    if (rest.length === 0) delete hooks[event];
    else hooks[event] = rest;
  }
  const out: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete out.hooks;
  return { settings: out, removed };
}
