/**
 * An operator at tower's keyboard: presses keys as the keymap defines them, reads the screen to
 * find runs and members, and waits for what a person would wait for. It drives a stage (a private
 * tmux server of its own, see scripts/render/stage.ts) and reads the sandbox's panes on the
 * sandbox's server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../scripts/bundle.js';
import type { Stage } from '../../scripts/render/stage.js';
import { captureText, waitForScreen } from '../../scripts/render/stage.js';
import type { Command } from '../../src/keys/keymap.js';
import { defaultBindings } from '../../src/keys/keymap.js';
import type { TmuxClient } from '../../src/tmux/client.js';
import { waitFor } from '../helpers/wait-for.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Bundles tower and its fake agents from the current source into `dir`, laid out like the repo
 * (`bin/tower.js` next to `dist/`), so a stale dist/ can't take part; returns the launcher's path.
 */
export async function buildTowerFromSource(dir: string): Promise<string> {
  await bundle(path.join(dir, 'dist'), undefined, { logLevel: 'error' });
  fs.mkdirSync(path.join(dir, 'bin'));
  // The whole launcher: `tower status` looks for its one file beside it (absent here: the full CLI answers).
  for (const file of fs.readdirSync(path.join(REPO, 'bin')))
    fs.copyFileSync(path.join(REPO, 'bin', file), path.join(dir, 'bin', file));
  return path.join(dir, 'bin', 'tower.js');
}

/** tmux names of the keymap's named keys (single characters are typed literally). */
const TMUX_KEYS: Record<string, string> = {
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  pageup: 'PPage',
  pagedown: 'NPage',
  home: 'Home',
  end: 'End',
  enter: 'Enter',
  esc: 'Escape',
  tab: 'Tab',
  'shift+tab': 'BTab',
  backspace: 'BSpace',
  delete: 'DC',
  space: 'Space',
};

/** A keymap key spec as a `send-keys` argument: `{ key }` for a named key, `{ text }` for a character. */
export function tmuxKeyOf(spec: string): { key: string } | { text: string } {
  const named = TMUX_KEYS[spec];
  if (named) return { key: named };
  const combo = /^(ctrl|alt)\+(.)$/.exec(spec);
  if (combo) return { key: `${combo[1] === 'ctrl' ? 'C' : 'M'}-${combo[2] ?? ''}` };
  return { text: spec };
}

const bindings = defaultBindings();

/** The key a person presses for `command`: the first one the default keymap gives it. */
export function keyFor(command: Command): string {
  const spec = bindings.keys[command][0];
  if (spec === undefined) throw new Error(`the keymap gives ${command} no key`);
  return spec;
}

/** Presses the key of `command` once. */
export async function press(stage: Stage, command: Command): Promise<void> {
  const k = tmuxKeyOf(keyFor(command));
  // A character goes literally (-l): a lone `;` or a word like `Up` must not be read as a key name.
  if ('text' in k) await stage.tmux.sendText(stage.paneId, k.text);
  else await stage.tmux.sendKey(stage.paneId, k.key);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The runs list's row of `name`: left border, selection mark or blank, system badge, name. */
function runRow(name: string): RegExp {
  return new RegExp(`^.[> ] \\S+\\s+${escapeRegExp(name)}(\\s|$)`);
}

/** The row the runs list marks selected (`>` right after the border), or null. */
export function selectedRunRow(screen: string): string | null {
  return screen.split('\n').find((line) => /^.> \S/.test(line)) ?? null;
}

/** The rows of the runs list, below its title and column header; [] when it is not on screen. */
function runRows(screen: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((line) => /^[╭┏].*\bRuns · \d+/.test(line));
  if (top < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(top + 2)) {
    if (/^[╰┗]/.test(line)) break;
    rows.push(line);
  }
  return rows;
}

/** The name of the run the runs list marks selected, or null. */
function selectedRunName(screen: string): string | null {
  return /^.> \S+\s+(\S+)/.exec(selectedRunRow(screen) ?? '')?.[1] ?? null;
}

/**
 * How long a key may take to show on a loaded machine before it counts as lost. Waits are polls,
 * so a key that lands at once costs nothing; a short wait would press again and overshoot.
 */
const KEY_LANDS_MS = 8000;

/** Whether the runs list shows `name` as the selected run. */
export function isRunSelected(screen: string, name: string): boolean {
  const row = selectedRunRow(screen);
  return row !== null && runRow(name).test(row);
}

/** Stages where a selection key was pressed: from then on the selected row is the chosen run. */
const pinnedStages = new WeakSet<Stage>();

/**
 * Moves the selection to run `name` one key at a time, reading the screen after each: the list
 * re-sorts as runs change, so no position is assumed. The first key pins the selection to a run
 * (until one is pressed the first row shows as selected, whichever run it is).
 */
export async function selectRun(stage: Stage, name: string, timeoutMs = 30_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  let screen = await captureText(stage);
  while (Date.now() < end) {
    const pinned = pinnedStages.has(stage);
    const lines = screen.split('\n');
    const target = lines.findIndex((line) => runRow(name).test(line));
    const selected = lines.findIndex((line) => /^.> \S/.test(line));
    if (pinned && target >= 0 && target === selected) return screen;
    const down = target < 0 || selected < 0 || !pinned ? selected !== lines.length - 1 : target > selected;
    const before = selectedRunName(screen);
    await press(stage, down ? 'down' : 'up');
    pinnedStages.add(stage);
    // Each key lands before the next is chosen, so keys never pile up: a key taken for landed
    // while it is still on its way is pressed again, and the selection overshoots. Once pinned,
    // the selected run changes only by a key (its row also changes with its run: a status, a
    // context figure, so the name is compared). Before that, the first row shows as selected and
    // a re-sort changes it, so the first key has landed once the mark is off the first row. A frame
    // caught half painted (no row marked) is not a landing either.
    const landed = pinned
      ? (now: string) => {
          const after = selectedRunName(now);
          return after !== null && after !== before;
        }
      : (now: string) => runRows(now).findIndex((row) => /^.>/.test(row)) > 0;
    screen = await waitForScreen(stage, landed, { timeoutMs: KEY_LANDS_MS, what: 'the selection to move' }).catch(() =>
      captureText(stage),
    );
  }
  throw new Error(`could not select run ${name}; the screen was:\n${screen}`);
}

/** The title of the focused pane (`[> Title`), or undefined on a screen caught between frames. */
const focusedTitle = (screen: string): string | undefined => screen.match(/\[> [A-Z][a-z]+/)?.[0];

/**
 * Presses focus-next until the pane titled `title` has focus (its title reads `[> Title`). A capture
 * can catch a frame half painted, the old title unmarked and the new one not yet marked: such a
 * screen never counts as the focus having moved, or the next key would be pressed while this one is
 * still on its way and the focus would overshoot.
 */
export async function focusPane(stage: Stage, title: string): Promise<string> {
  const focused = `[> ${title}`;
  let screen = await waitForScreen(stage, (now) => focusedTitle(now) !== undefined, {
    timeoutMs: KEY_LANDS_MS,
    what: 'a focused pane',
  });
  for (let i = 0; i < 8 && !screen.includes(focused); i++) {
    const before = focusedTitle(screen);
    await press(stage, 'focus-next');
    screen = await waitForScreen(
      stage,
      (now) => {
        const after = focusedTitle(now);
        return after !== undefined && after !== before;
      },
      { timeoutMs: KEY_LANDS_MS, what: 'the focus to move' },
    );
  }
  if (!screen.includes(focused)) throw new Error(`could not focus the ${title} pane; the screen was:\n${screen}`);
  return screen;
}

/**
 * The rows of the team pane, cut to its width (it is the left pane under the runs list, and the
 * panes beside it must not be read as part of a row); [] when it is not on screen.
 */
export function teamRows(screen: string): string[] {
  const lines = screen.split('\n').map((l) => [...l]);
  const top = lines.findIndex((l) => /^[╭┏].*\bTeam · \d+/.test(l.join('')));
  if (top < 0) return [];
  const width = (lines[top] ?? []).findIndex((ch, i) => i > 0 && (ch === '╮' || ch === '┓')) + 1;
  const rows: string[] = [];
  for (const l of lines.slice(top + 1)) {
    const row = l.slice(0, width).join('');
    if (/^[╰┗]/.test(row)) break;
    rows.push(row);
  }
  return rows;
}

/** The team pane's row of the member whose pane is `paneId`, or null. */
export function memberRow(screen: string, paneId: string): string | null {
  return teamRows(screen).find((row) => new RegExp(`\\s${escapeRegExp(paneId)}\\s`).test(row)) ?? null;
}

/** The member name on the team pane's cursor row (marked `>` while the pane has focus), or null. */
export function cursorMember(screen: string): string | null {
  for (const row of teamRows(screen)) {
    const m = /^.>[ ★]+(\S+)/.exec(row);
    if (m?.[1]) return m[1];
  }
  return null;
}

/** The name on a team pane row (after the cursor mark and the lead star), or null for a header or blank row. */
function rowMember(row: string): string | null {
  return /^.[> ][ ★]+(\S+)/.exec(row)?.[1] ?? null;
}

/**
 * With the team pane focused, moves its cursor to `member`, up or down, reading the rows from the
 * screen. As in focusPane, a frame caught half painted (no cursor row marked) is never read as a move.
 */
export async function selectMember(stage: Stage, member: string): Promise<string> {
  let screen = await waitForScreen(stage, (now) => cursorMember(now) !== null, {
    timeoutMs: KEY_LANDS_MS,
    what: 'the team cursor',
  });
  for (let i = 0; i < 12; i++) {
    const current = cursorMember(screen);
    if (current === member) return screen;
    const names = teamRows(screen).map(rowMember);
    const target = names.indexOf(member);
    const at = current === null ? -1 : names.indexOf(current);
    if (target < 0) break;
    await press(stage, at >= 0 && target < at ? 'up' : 'down');
    screen = await waitForScreen(
      stage,
      (now) => {
        const after = cursorMember(now);
        return after !== null && after !== current;
      },
      { timeoutMs: KEY_LANDS_MS, what: `the team cursor to move towards ${member}` },
    );
  }
  throw new Error(`could not put the team cursor on ${member}; the screen was:\n${screen}`);
}

/** Waits for a pane of the sandbox (screen and scrollback) to show `text`; the error quotes the pane. */
export async function waitForAgentPane(
  tmux: TmuxClient,
  paneId: string,
  text: string,
  timeoutMs = 10_000,
): Promise<string> {
  let last = '';
  try {
    return await waitFor(
      async () => {
        last = await tmux.capturePane(paneId, 300);
        return last.includes(text) ? last : null;
      },
      timeoutMs,
      { intervalMs: 150, what: `pane ${paneId} to show ${text}` },
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; the pane showed:\n${last}`);
  }
}

/** The ids of the panes on a tmux server that are open and alive. */
export async function livePaneIds(tmux: TmuxClient): Promise<Set<string>> {
  const panes = (await tmux.listPanesOrNull()) ?? [];
  return new Set(panes.filter((p) => !p.dead).map((p) => p.paneId));
}
