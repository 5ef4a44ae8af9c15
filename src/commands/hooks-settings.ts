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
/**
 * At most this much of one event's JSON goes on its line (a tool's output can be huge). The whole
 * line must leave the shell in ONE write(2) so hooks firing together never interleave: dash writes
 * a printf in one write up to its 8 KiB buffer, bash's stdio up to 4 KiB (measured with strace:
 * a 16 KiB line took dash 3 writes, 7 KiB took bash 2). 3.5 KiB of JSON, plus at most ~230 bytes
 * of time, pane and socket path, stays under 4 KiB; the fields tower reads come first in the JSON.
 */
export const EVENT_BYTES = 3584;
/** At most this much of a held request's JSON; a longer request is not held (the agent's dialog answers). */
export const REQUEST_BYTES = 64 * 1024;

/** The longest a PermissionRequest may be held open for tower to answer (`--hold-permissions`). */
export const MAX_HOLD_SECONDS = 300;

/**
 * Where the hook cannot wait to be woken (no `mkfifo` or `timeout`): for this long after it starts
 * holding a request, it looks for tower's answer this many times a second; every 0.2 s after that.
 * Most answers come while the dialog is fresh, and a look costs a `sleep` process (~1.3 ms of CPU
 * on a busy 2-core box): 20 a second for 30 s is ~0.8 s of CPU per held request, against ~100 ms
 * of waiting on average at 0.2 s.
 */
export const QUICK_SECONDS = 30;
export const QUICK_PER_SECOND = 20;

/**
 * Claude Code's answer to a PermissionRequest hook, as its hook reference gives it
 * (code.claude.com/docs/en/hooks, "PermissionRequest decision control"): JSON on stdout, exit 0.
 */
export function permissionDecision(behavior: 'allow' | 'deny'): string {
  const decision = behavior === 'allow' ? { behavior } : { behavior, message: 'denied by the operator from tower' };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
}

/**
 * The start of every hook line: files made private (umask 077: the events hold prompts, commands
 * and tool output), bytes counted as bytes (LC_ALL=C), the folder and file, the agent's pane
 * (`$TMUX_PANE`) and its tmux server's socket (`$TMUX` up to the first comma), each emptied when
 * it is not one plain short field.
 */
const PRELUDE = [
  'umask 077; LC_ALL=C; d="${XDG_STATE_HOME:-$HOME/.local/state}/tower/hooks"; f="$d/events";',
  'p="${TMUX_PANE:-}"; case "$p" in %*[!0-9]*|[!%]*) p=;; esac; [ ${#p} -le 12 ] || p=;',
  's="${TMUX:-}"; s="${s%%,*}"; case "$s" in *[[:cntrl:]]*|[!/]*) s=;; esac; [ ${#s} -le 200 ] || s=;',
].join(' ');
// `2>/dev/null` before `<"$f"`: the shell reports a redirection that fails before the command's
// own redirections apply, and a first event on a box has no file yet.
const ROTATE =
  `{ [ "$(wc -c 2>/dev/null <"$f" || echo 0)" -le ${EVENTS_FILE_LIMIT} ] || mv -f "$f" ` + `"$f.1" 2>/dev/null; } &&`;
/** One printf, one write: `<epoch>\t<pane>\t<server socket>\t<event JSON>`. */
const APPEND = `printf '%s\\t%s\\t%s\\t%s\\n' "$(date +%s)" "$p" "$s" "$e" >>"$f" 2>/dev/null`;

/**
 * The hook itself: one POSIX sh line, no Node start per event. It appends the time, the agent's
 * tmux pane and server socket and the event's JSON (one line, cut at EVENT_BYTES) to
 * `$XDG_STATE_HOME/tower/hooks/events` in one write, rotating the file past EVENTS_FILE_LIMIT.
 * It is silent and exits 0 whatever happens: a hook's trouble is never the agent's.
 *
 * With `holdSeconds` > 0 (PermissionRequest only) it then holds the request open for tower: it
 * makes its folders 0700 (and holds nothing when it cannot: another user's folder), writes
 * `held/<epoch>-<pid>.req` (`<pane>\t<epoch>\t<seconds>\t<server socket>`, then the event's
 * JSON, whole up to REQUEST_BYTES; a longer request is not held) and waits for `held/<id>.answer`
 * (`allow` or `deny`, written atomically by `tower answer`, which then writes a byte into the FIFO
 * `held/<id>.wake` the hook made and holds open), at most holdSeconds; without a FIFO or `timeout`
 * it looks for the file every 0.05 s for QUICK_SECONDS, then every 0.2 s. It prints Claude Code's
 * decision for that answer. With no answer in time (or any other answer) it prints nothing and exits 0:
 * Claude Code then shows its own permission dialog, as without tower.
 */
export function hookCommand(holdSeconds = 0): string {
  if (holdSeconds <= 0) {
    return [
      PRELUDE,
      'mkdir -p "$d" 2>/dev/null &&',
      ROTATE,
      `e="$(tr -d '\\n\\r' | head -c ${EVENT_BYTES})" &&`,
      `${APPEND}; true`,
      MARKER,
    ].join(' ');
  }
  const hold = Math.min(MAX_HOLD_SECONDS, Math.floor(holdSeconds));
  const quick = Math.min(hold, QUICK_SECONDS);
  return [
    PRELUDE,
    `h="$d/${HELD_DIR}"; r="$(date +%s)-$$";`,
    'mkdir -p "$h" 2>/dev/null &&',
    ROTATE,
    `j="$(tr -d '\\n\\r' | head -c ${REQUEST_BYTES})" && e="$(printf '%s' "$j" | head -c ` +
      `${EVENT_BYTES})" && { ${APPEND}; true; } &&`,
    // An agent outside tmux has no pane tower could answer for, a request cut short cannot be
    // shown whole, and a folder others can write into could answer for the operator: nothing is held.
    `[ -n "$p" ] && [ \${#j} -lt ${REQUEST_BYTES} ] && chmod 700 "\${d%/*}" "$d" "$h" 2>/dev/null && ` +
      `rm -f "$h/$r.answer" &&`,
    `printf '%s\\t%s\\t%s\\t%s\\n%s\\n' "$p" "$(date +%s)" ${hold} "$s" "$j" >"$h/$r.tmp" && mv -f ` +
      `"$h/$r.tmp" "$h/$r.req" &&`,
    // Woken by tower the moment it answers: a byte in a FIFO the hook holds open, read by `head`
    // under `timeout` a second at a time (an answer file written without the byte, by an older
    // tower, is still found within a second), hold seconds in all. Two processes a second while it
    // waits, not twenty, and ~30 ms sooner than a look every 0.05 s. A signal ends the wait with the
    // hook. Where there is no FIFO or no `timeout`, the hook looks instead: quick looks while an
    // answer is likely soon, then slow ones, both counted, so the hold stays bounded.
    `{ if mkfifo "$h/$r.wake" && command exec 3<>"$h/$r.wake" && command -v timeout >/dev/null; then ` +
      `trap 'kill $w; exit 0' HUP INT TERM; i=0; while [ "$i" -lt ${hold} ] && [ ! -f "$h/$r.answer" ]; ` +
      `do timeout 1 head -c 1 <&3 >/dev/null 2>&1 & w=$!; wait $w; i=$((i+1)); done; ` +
      `trap - HUP INT TERM; exec 3>&-; else`,
    `i=0; while [ "$i" -lt ${quick * QUICK_PER_SECOND} ] && [ ! -f "$h/$r.answer" ]; do sleep ` +
      `${1 / QUICK_PER_SECOND}; i=$((i+1)); done;`,
    `i=${quick * 5}; while [ "$i" -lt ${hold * 5} ] && [ ! -f "$h/$r.answer" ]; do sleep 0.2; i=$((i+1)); done; fi;`,
    'a="$(head -c 8 "$h/$r.answer" 2>/dev/null)"; rm -f "$h/$r.req" "$h/$r.answer" "$h/$r.wake";',
    `case "$a" in allow) printf '%s\\n' '${permissionDecision('allow')}';; deny) printf '%s\\n' ` +
      `'${permissionDecision('deny')}';; esac; } 2>/dev/null; true`,
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
function claudeGroup(event: string, holdSeconds: number): Json {
  const hold = event === 'PermissionRequest' ? Math.min(MAX_HOLD_SECONDS, Math.max(0, Math.floor(holdSeconds))) : 0;
  // Claude Code ends a command hook at its timeout: give the hold room to print its answer first.
  const hook: Json = { type: 'command', command: hookCommand(hold), ...(hold > 0 ? { timeout: hold + 30 } : {}) };
  return { matcher: '', hooks: [hook] };
}

/**
 * One agent CLI's hook settings: its event names, tower's group for an event, and whether it can
 * hold a permission request open for tower (Claude Code's PermissionRequest can).
 */
export interface HookFlavour {
  /** The CLI's name in messages. */
  cli: string;
  events: readonly string[];
  group(event: string, holdSeconds: number): Json;
  holds: boolean;
}

/** Claude Code's settings file (`~/.claude/settings.json`, a project's `.claude/settings.json`). */
export const CLAUDE_HOOKS: HookFlavour = { cli: 'Claude Code', events: HOOK_EVENTS, group: claudeGroup, holds: true };

/** How long the PermissionRequest entry installed holds requests open (0: not held), from its command. */
export function installedHold(settings: Json): number {
  const list = isObj(settings.hooks) ? settings.hooks.PermissionRequest : undefined;
  if (!Array.isArray(list)) return 0;
  for (const g of list.filter(isOurs) as Json[]) {
    const cmd = String(((g.hooks as Json[])[0] ?? {}).command ?? '');
    // This line's form (`"$p" … 30 "$s"`) and the one before it (`"$TMUX_PANE" … 30 "$j"`).
    const n = /"\$(?:TMUX_PANE|p)" "\$\(date \+%s\)" (\d+) "\$[js]"/.exec(cmd)?.[1];
    if (n) return Number(n);
  }
  return 0;
}

/**
 * The settings with tower's entry in every event (once), and the events it was added to or changed
 * in. `holdSeconds` > 0 makes the PermissionRequest entry hold requests open that long for tower.
 */
export function withHooks(
  settings: Json,
  holdSeconds = 0,
  flavour: HookFlavour = CLAUDE_HOOKS,
): { settings: Json; added: string[] } | { refusal: string } {
  if (settings.hooks !== undefined && !isObj(settings.hooks))
    return { refusal: '"hooks" in the settings file is not an object; tower leaves it as it is' };
  const hooks: Json = { ...((settings.hooks as Json | undefined) ?? {}) };
  const added: string[] = [];
  for (const event of flavour.events) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list))
      return { refusal: `"hooks.${event}" is not a list; tower leaves it as it is` };
    const group = flavour.group(event, holdSeconds);
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
