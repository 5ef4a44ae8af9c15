/**
 * `tower hooks install|uninstall|status [--settings FILE]`: tower's hook entries in a Claude Code
 * settings file the operator names. A file that cannot be read or parsed is never rewritten (refused
 * with the reason); a write is atomic and keeps a backup of the file as it was
 * (`FILE.tower-backup`); uninstall gives back exactly the bytes that were there when nothing else
 * changed since the install, else takes out tower's entries alone. `--dry-run` prints the change.
 * A settings file that is a symlink is refused before anything is written; install makes tower's
 * state folder the user's alone (0700, the events files 0600), and the backup keeps the settings
 * file's mode.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context/context.js';
import { stateHome } from '../config/config.js';
import { readLogTail } from '../files/tail.js';
import { writeAtomic } from '../kit/files.js';
import { HELD_DIR } from '../store/held-requests.js';
import { hookEventsFile, parseEventLine } from '../store/hook-events.js';
import { sanitizeLine } from '../text/sanitize.js';
import { GEMINI_HOOKS, isGeminiSettings } from './hooks-gemini.js';
import {
  CLAUDE_HOOKS,
  MARKER,
  MAX_HOLD_SECONDS,
  installedEvents,
  installedHold,
  withHooks,
  withoutHooks,
} from './hooks-settings.js';
import type { HookFlavour } from './hooks-settings.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

type Json = Record<string, unknown>;

/** The settings file's text and value; a missing file is `{}` (install creates it). */
function readSettings(file: string): { text: string | null; value: Json } | { refusal: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, value: {} };
    return {
      refusal: `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)}); it is left as it is`,
    };
  }
  if (text.trim() === '') return { text, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      refusal:
        `${file} is not valid JSON (${sanitizeLine((err as Error).message)}); fix it first, ` +
        `tower never rewrites a file it cannot read`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { refusal: `${file} is not a JSON object; it is left as it is` };
  return { text, value: value as Json };
}

/** The folders of `dir`'s path that do not exist yet, outermost first: what mkdir -p would create. */
function missingFolders(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) {
    out.unshift(d);
    if (path.dirname(d) === d) break;
  }
  return out;
}

const render = (value: Json): string => `${JSON.stringify(value, null, 2)}\n`;
const backupOf = (file: string): string => `${file}.tower-backup`;

/** Why the settings file or its backup is a symlink (tower never writes through one), or null. */
function linkIn(file: string): string | null {
  for (const f of [file, backupOf(file)]) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(f);
    } catch {
      continue;
    }
    if (st.isSymbolicLink())
      return (
        `${f} is a symlink (to ${sanitizeLine(fs.readlinkSync(f))}); tower never writes through ` +
        `a link: name the file itself`
      );
    if (!st.isFile()) return `${f} is not a regular file`;
  }
  return null;
}

/**
 * Makes tower's state folder and its hooks folders the user's alone (0700), and the events files
 * 0600: they hold prompts, commands and tool output, and an answer file in a folder others can
 * write into could allow a request for the operator. Says why when a folder is another user's.
 */
function privateStateFolder(towerState: string): string | null {
  const held = path.join(towerState, 'hooks', HELD_DIR);
  fs.mkdirSync(held, { recursive: true, mode: 0o700 });
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  for (const d of [towerState, path.dirname(held), held]) {
    const st = fs.lstatSync(d);
    if (st.isSymbolicLink() || !st.isDirectory()) return `${d} is not a folder of its own (a symlink?)`;
    if (uid !== null && st.uid !== uid) return `${d} belongs to uid ${st.uid}, not to you`;
    fs.chmodSync(d, 0o700);
  }
  for (const f of [hookEventsFile(towerState), `${hookEventsFile(towerState)}.1`]) {
    const st = fs.lstatSync(f, { throwIfNoEntry: false });
    if (st?.isFile() && (uid === null || st.uid === uid)) fs.chmodSync(f, st.mode & 0o700);
  }
  return null;
}

/** The last event the hook wrote: when, and which. */
function lastEvent(env: NodeJS.ProcessEnv): string {
  const file = hookEventsFile(stateHome(env));
  const tail = readLogTail(file);
  const lines = tail.ok ? tail.value.text.trimEnd().split('\n') : [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const e = parseEventLine(lines[i] ?? '');
    if (e)
      return (
        `last event ${e.event} from ${e.pane || 'an agent outside tmux'} at ` +
        `${new Date(e.at).toISOString()} (${file})`
      );
  }
  return `no event has arrived yet (${file})`;
}

/**
 * What a dry run prints: the file as it would be written, each distinct hook line of tower's shown
 * once below it (in the file as `<tower hook line N>`), with the events it goes to. The line is
 * ~700 characters; printed once per event it made a dry run of ~9 KB.
 */
export function dryRunText(file: string, next: string): string {
  const lines = new Map<string, string[]>();
  let value: unknown;
  try {
    value = JSON.parse(next);
  } catch {
    return `dry run: would write ${file}:\n${next}`;
  }
  const hooks = (value as { hooks?: unknown }).hooks;
  if (hooks && typeof hooks === 'object' && !Array.isArray(hooks)) {
    for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      for (const group of list as Array<{ hooks?: unknown }>) {
        if (!Array.isArray(group?.hooks)) continue;
        for (const h of group.hooks as Array<{ command?: unknown }>) {
          if (typeof h?.command !== 'string' || !h.command.trimEnd().endsWith(MARKER)) continue;
          lines.set(h.command, [...(lines.get(h.command) ?? []), event]);
        }
      }
    }
  }
  let shown = next;
  const notes: string[] = [];
  [...lines.entries()].forEach(([command, events], i) => {
    const name = `<tower hook line ${i + 1}>`;
    shown = shown.split(JSON.stringify(command)).join(JSON.stringify(name));
    notes.push(`${name}, in ${events.join(', ')}:\n${command}\n`);
  });
  return `dry run: would write ${file}:\n${shown}${notes.join('')}`;
}

/** Settings read whole (the refusal of an unreadable file already said). */
type SettingsRead = Exclude<ReturnType<typeof readSettings>, { refusal: string }>;

/** What a change writes: the settings' next text, or the file removed; what it says it did. */
interface Change {
  next: string;
  said: string;
  removeFile: boolean;
}

/** Why the arguments do not make a `tower hooks` call, or the seconds a request is held. */
function argumentProblem(
  verb: string,
  opts: { settings?: string | undefined; holdPermissions?: string | undefined },
): { problem: string } | { hold: number } {
  if (!['install', 'uninstall', 'status'].includes(verb))
    return { problem: `hooks takes install, uninstall or status, not "${sanitizeLine(verb)}"` };
  if (opts.holdPermissions !== undefined && verb !== 'install')
    return { problem: '--hold-permissions goes with install' };
  const hold = opts.holdPermissions === undefined ? 0 : Number(opts.holdPermissions);
  if (!Number.isInteger(hold) || hold < 0 || hold > MAX_HOLD_SECONDS)
    return {
      problem:
        `--hold-permissions is a whole number of seconds from 0 to ${MAX_HOLD_SECONDS}, not ` +
        `"${sanitizeLine(opts.holdPermissions ?? '')}"`,
    };
  if (!opts.settings && verb !== 'status')
    return {
      problem:
        'name the settings file: --settings ~/.claude/settings.json (every project) or ' +
        "--settings .claude/settings.json (one project); Gemini CLI's: --settings ~/.gemini/settings.json",
    };
  return { hold };
}

/** `tower hooks status`: the events tower's hook is in, how long it holds requests, the last event. */
function hooksStatus(ctx: AppContext, file: string, read: SettingsRead): number {
  const events = installedEvents(read.value);
  ctx.out.write(
    events.length
      ? `tower's hooks are installed in ${file} for ${events.join(', ')}\n`
      : `tower's hooks are not installed in ${file}\n`,
  );
  const held = installedHold(read.value);
  if (held > 0)
    ctx.out.write(
      `permission requests are held open up to ${held} s for tower answer (then the agent's own dialog shows)\n`,
    );
  ctx.out.write(`${lastEvent(ctx.env)}\n`);
  return EXIT_OK;
}

/** What installing writes, or the exit code when it writes nothing (installed already, or refused). */
function installChange(
  ctx: AppContext,
  file: string,
  read: SettingsRead,
  hold: number,
  flavour: HookFlavour,
): Change | number {
  const changed = withHooks(read.value, hold, flavour);
  if ('refusal' in changed) {
    ctx.err.write(`tower: refused: ${changed.refusal}\n`);
    return EXIT_FAILURE;
  }
  if (changed.added.length === 0) {
    // Installed already: its folders are made the user's alone all the same (an older install left them open).
    const unsafe = ctx.dryRun ? null : privateStateFolder(stateHome(ctx.env));
    if (unsafe) {
      ctx.err.write(`tower: refused: ${unsafe}\n`);
      return EXIT_FAILURE;
    }
    ctx.out.write(`tower's hooks are already installed in ${file}; nothing to do\n`);
    return EXIT_OK;
  }
  let said = `added tower's hook to ${flavour.cli}'s ${changed.added.join(', ')} in ${file}`;
  if (hold > 0) said += `; PermissionRequest holds each request open up to ${hold} s for tower answer`;
  return { next: render(changed.settings), said, removeFile: false };
}

/** What uninstalling writes (the file as it was before the install, when nothing else changed since). */
function uninstallChange(ctx: AppContext, file: string, read: SettingsRead, flavour: HookFlavour): Change | number {
  const changed = withoutHooks(read.value);
  if (changed.removed.length === 0) {
    ctx.out.write(`tower's hooks are not installed in ${file}; nothing to do\n`);
    return EXIT_OK;
  }
  let next = render(changed.settings);
  let removeFile = false;
  // Nothing else changed since the install: the file as it was, byte for byte.
  const backup = readSettings(backupOf(file));
  if (!('refusal' in backup) && backup.text !== null) {
    const reinstalled = withHooks(backup.value, installedHold(read.value), flavour);
    if (!('refusal' in reinstalled) && render(reinstalled.settings) === read.text) next = backup.text;
  } else if (!('refusal' in backup)) {
    // No backup: the install created the file. Unchanged since, it goes again.
    const created = withHooks({}, installedHold(read.value), flavour);
    if (!('refusal' in created) && render(created.settings) === read.text) removeFile = true;
  }
  return { next, said: `removed tower's hook from ${changed.removed.join(', ')} in ${file}`, removeFile };
}

/** Writes a change (the backup first, on install), or removes the file tower's install created. */
async function writeChange(ctx: AppContext, verb: string, file: string, read: SettingsRead, c: Change) {
  if (c.removeFile) {
    try {
      fs.unlinkSync(file);
    } catch (err) {
      ctx.err.write(`tower: refused: ${sanitizeLine((err as Error).message)}\n`);
      return EXIT_FAILURE;
    }
    ctx.out.write(`${c.said}; removed the file, which tower's install created\n`);
    return EXIT_OK;
  }
  const dir = path.dirname(file);
  const made = missingFolders(dir);
  fs.mkdirSync(dir, { recursive: true });
  if (verb === 'install') {
    const unsafe = privateStateFolder(stateHome(ctx.env));
    if (unsafe) {
      ctx.err.write(`tower: refused: ${unsafe}; nothing was written\n`);
      return EXIT_FAILURE;
    }
  }
  try {
    // The backup keeps the mode of the file it copies (a settings file may hold an API key).
    if (verb === 'install' && read.text !== null)
      await writeAtomic(dir, backupOf(file), read.text, fs.statSync(file).mode & 0o777);
    await writeAtomic(dir, file, c.next);
  } catch (err) {
    ctx.err.write(`tower: refused: ${sanitizeLine((err as Error).message)}\n`);
    return EXIT_FAILURE;
  }
  ctx.out.write(
    `${c.said}${verb === 'install' && read.text !== null ? ` (the file as it was: ${backupOf(file)})` : ''}\n`,
  );
  if (made.length > 0) ctx.out.write(`created the missing folder${made.length === 1 ? '' : 's'} ${made.join(', ')}\n`);
  return EXIT_OK;
}

/** `tower hooks <verb>`. */
export async function hooksCommand(
  ctx: AppContext,
  verb: string,
  opts: { settings?: string | undefined; holdPermissions?: string | undefined },
): Promise<number> {
  const args = argumentProblem(verb, opts);
  if ('problem' in args) {
    ctx.err.write(`tower: ${args.problem}\n`);
    return EXIT_USAGE;
  }
  const file = path.resolve(opts.settings ?? path.join(ctx.claudeDir, 'settings.json'));
  const flavour: HookFlavour = isGeminiSettings(file) ? GEMINI_HOOKS : CLAUDE_HOOKS;
  if (args.hold > 0 && !flavour.holds) {
    ctx.err.write(
      `tower: --hold-permissions is for Claude Code; ${flavour.cli} has no hook that can answer a permission\n`,
    );
    return EXIT_USAGE;
  }
  const linked = verb === 'status' ? null : linkIn(file);
  if (linked) {
    ctx.err.write(`tower: refused: ${linked}; nothing was written\n`);
    return EXIT_FAILURE;
  }
  const read = readSettings(file);
  if ('refusal' in read) {
    ctx.err.write(`tower: refused: ${read.refusal}\n`);
    return EXIT_FAILURE;
  }
  if (verb === 'status') return hooksStatus(ctx, file, read);
  if (ctx.readonly) {
    ctx.err.write('tower: refused: read-only mode\n');
    return EXIT_FAILURE;
  }
  const change =
    verb === 'install' ? installChange(ctx, file, read, args.hold, flavour) : uninstallChange(ctx, file, read, flavour);
  if (typeof change === 'number') return change;
  if (ctx.dryRun) {
    ctx.out.write(
      change.removeFile ? `dry run: would remove ${file} (tower created it)\n` : dryRunText(file, change.next),
    );
    return EXIT_OK;
  }
  return writeChange(ctx, verb, file, read, change);
}
