/**
 * tower's entries in a Claude Code settings file, as data: what `tower hooks install` adds and
 * `uninstall` takes away. Claude Code's shape: `{"hooks": {"<Event>": [{"matcher": "", "hooks":
 * [{"type": "command", "command": "…"}]}]}}`. tower adds one group per event holding its one command,
 * recognised by the marker at its end; nothing else of the file is touched, and an event list or a
 * `hooks` object tower created is removed again when it holds nothing else.
 */

import { HELD_DIR } from '../store/held-requests.js';

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

/** The longest a PermissionRequest may be held open for tower to answer (`--hold-permissions`). */
export const MAX_HOLD_SECONDS = 300;

/**
 * Claude Code's answer to a PermissionRequest hook, as its hook reference gives it
 * (code.claude.com/docs/en/hooks, "PermissionRequest decision control"): JSON on stdout, exit 0.
 */
export function permissionDecision(behavior: 'allow' | 'deny'): string {
  const decision = behavior === 'allow' ? { behavior } : { behavior, message: 'denied by the operator from tower' };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
}

const EVENTS_DIR = 'd="${XDG_STATE_HOME:-$HOME/.local/state}/tower/hooks"; f="$d/events";';
const ROTATE = `{ [ "$(wc -c <"$f" 2>/dev/null || echo 0)" -le ${EVENTS_FILE_LIMIT} ] || mv -f "$f" "$f.1"; } &&`;

/**
 * The hook itself: one POSIX sh line, no Node start per event. It appends the time, the agent's
 * tmux pane ($TMUX_PANE) and the event's JSON (one line, cut at EVENT_BYTES) to
 * `$XDG_STATE_HOME/tower/hooks/events`, rotating the file past EVENTS_FILE_LIMIT.
 *
 * With `holdSeconds` > 0 (PermissionRequest only) it then holds the request open for tower: it
 * writes `held/<epoch>-<pid>.req` (`<pane>\t<epoch>\t<seconds>`, then the event's JSON) and looks
 * every 0.2 s, at most holdSeconds, for `held/<id>.answer` (`allow` or `deny`, written atomically by
 * `tower answer`); it prints Claude Code's decision for that answer. With no answer in time it prints
 * nothing and exits 0: Claude Code then shows its own permission dialog, as without tower.
 */
export function hookCommand(holdSeconds = 0): string {
  if (holdSeconds <= 0) {
    return [
      EVENTS_DIR,
      'mkdir -p "$d" &&',
      ROTATE,
      `{ printf '%s\\t%s\\t' "$(date +%s)" "\${TMUX_PANE:-}"; tr -d '\\n\\r' | head -c ${EVENT_BYTES}; echo; } >>"$f"`,
      MARKER,
    ].join(' ');
  }
  const hold = Math.min(MAX_HOLD_SECONDS, Math.floor(holdSeconds));
  return [
    EVENTS_DIR,
    `h="$d/${HELD_DIR}"; r="$(date +%s)-$$";`,
    'mkdir -p "$h" &&',
    ROTATE,
    `j="$(tr -d '\\n\\r' | head -c ${EVENT_BYTES})" &&`,
    `printf '%s\\t%s\\t%s\\n' "$(date +%s)" "\${TMUX_PANE:-}" "$j" >>"$f" &&`,
    // An agent outside tmux has no pane tower could answer for: nothing is held.
    '[ -n "${TMUX_PANE:-}" ] &&',
    `printf '%s\\t%s\\t%s\\n%s\\n' "$TMUX_PANE" "$(date +%s)" ${hold} "$j" >"$h/$r.tmp" && mv -f "$h/$r.tmp" "$h/$r.req" &&`,
    `{ i=0; while [ "$i" -lt ${hold * 5} ] && [ ! -f "$h/$r.answer" ]; do sleep 0.2; i=$((i+1)); done;`,
    'rm -f "$h/$r.req"; a="$(head -c 8 "$h/$r.answer" 2>/dev/null)"; rm -f "$h/$r.answer";',
    `case "$a" in allow) printf '%s\\n' '${permissionDecision('allow')}';; deny) printf '%s\\n' '${permissionDecision('deny')}';; esac; }; true`,
    MARKER,
  ].join(' ');
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function isOurs(group: unknown): boolean {
  if (!isObj(group) || !Array.isArray(group.hooks)) return false;
  return (
    group.hooks.length > 0 &&
    group.hooks.every((h) => isObj(h) && typeof h.command === 'string' && h.command.trimEnd().endsWith(MARKER))
  );
}

/** The events whose lists hold tower's entry. */
export function installedEvents(settings: Json): string[] {
  const hooks = settings.hooks;
  if (!isObj(hooks)) return [];
  return Object.keys(hooks).filter((e) => Array.isArray(hooks[e]) && (hooks[e] as unknown[]).some(isOurs));
}

/** tower's group for one event: its command, and for a held PermissionRequest a timeout past the hold. */
function groupFor(event: string, holdSeconds: number): Json {
  const hold = event === 'PermissionRequest' ? Math.min(MAX_HOLD_SECONDS, Math.max(0, Math.floor(holdSeconds))) : 0;
  // Claude Code ends a command hook at its timeout: give the hold room to print its answer first.
  const hook: Json = { type: 'command', command: hookCommand(hold), ...(hold > 0 ? { timeout: hold + 30 } : {}) };
  return { matcher: '', hooks: [hook] };
}

/** How long the PermissionRequest entry installed holds requests open (0: not held), from its command. */
export function installedHold(settings: Json): number {
  const list = isObj(settings.hooks) ? settings.hooks.PermissionRequest : undefined;
  if (!Array.isArray(list)) return 0;
  for (const g of list.filter(isOurs) as Json[]) {
    const cmd = String(((g.hooks as Json[])[0] ?? {}).command ?? '');
    const n = /"\$TMUX_PANE" "\$\(date \+%s\)" (\d+) "\$j"/.exec(cmd)?.[1];
    if (n) return Number(n);
  }
  return 0;
}

/**
 * The settings with tower's entry in every event (once), and the events it was added to or changed
 * in. `holdSeconds` > 0 makes the PermissionRequest entry hold requests open that long for tower.
 */
export function withHooks(settings: Json, holdSeconds = 0): { settings: Json; added: string[] } | { refusal: string } {
  if (settings.hooks !== undefined && !isObj(settings.hooks))
    return { refusal: '"hooks" in the settings file is not an object; tower leaves it as it is' };
  const hooks: Json = { ...((settings.hooks as Json | undefined) ?? {}) };
  const added: string[] = [];
  for (const event of HOOK_EVENTS) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list))
      return { refusal: `"hooks.${event}" is not a list; tower leaves it as it is` };
    const group = groupFor(event, holdSeconds);
    const ours = (list ?? []).filter(isOurs);
    if (ours.length === 1 && JSON.stringify(ours[0]) === JSON.stringify(group)) continue;
    // Installed with another hold (or an older line): tower's entry is replaced where it stood.
    const at = (list ?? []).findIndex(isOurs);
    const rest = (list ?? []).filter((g) => !isOurs(g));
    hooks[event] = at < 0 ? [...rest, group] : [...rest.slice(0, at), group, ...rest.slice(at)];
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
