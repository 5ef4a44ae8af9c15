/**
 * The control-room shots of the demo: builds the sandbox on a private tmux server, runs tower
 * against it in a second private server, drives it with keys found by reading the screen, and
 * saves each scene. Both servers are killed and the sandbox stopped however it ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../../src/demo/panes.js';
import { buildSandbox } from '../../src/demo/sandbox.js';
import type { DemoSandbox } from '../../src/demo/sandbox.js';
import { makeTempSandboxDir } from '../../src/demo/sandbox-dir.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { privateSocket, privateXdg } from './command-shot.js';
import type { SavedShot } from './shot.js';
import { saveShot } from './shot.js';
import { captureText, closeStage, openStage, pressKeys, typeText, waitForQuiet, waitForScreen } from './stage.js';
import type { Stage } from './stage.js';

const TOWER_BIN = fileURLToPath(new URL('../../bin/tower.js', import.meta.url));

/** How long the demo may take to reach a state (the harness fires after ~15 s, tina's signal after ~20 s). */
const SCENE_TIMEOUT_MS = 90_000;

/** Options of takeDemoShots. */
export interface DemoShotOptions {
  scale?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

/** The shell command that runs tower on the sandbox (NO_COLOR dropped: the shots are in colour). */
export function towerCommand(sandbox: Pick<DemoSandbox, 'roots' | 'claudeDir' | 'socketName'>): string {
  const args = [
    ...sandbox.roots.flatMap((root) => ['--root', root]),
    ...['--claude-dir', sandbox.claudeDir],
    ...['-L', sandbox.socketName],
  ];
  return ['env', '-u', 'NO_COLOR', process.execPath, TOWER_BIN, ...args].map(shellQuote).join(' ');
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A row of the runs list showing `name`: border, selection mark or blank, system, name. */
function runRowPattern(name: string): RegExp {
  return new RegExp(`^.[> ] \\S+\\s+${escapeRegExp(name)}(\\s|$)`);
}

/** The runs list marks the selected row with `>` right after the pane's border. */
const SELECTED_ROW = /^.> \S/;

/** The selected row of the runs list as shown, or null. */
function selectedRow(screen: string): string | null {
  return screen.split('\n').find((line) => SELECTED_ROW.test(line)) ?? null;
}

/** The name on the selected row of the runs list, or null. */
function selectedName(screen: string): string | null {
  return /^.> \S+\s+(\S+)/.exec(selectedRow(screen) ?? '')?.[1] ?? null;
}

/** Whether the selection mark is off the list's first row (the column header is not a row). */
function offFirstRow(screen: string): boolean {
  const rows = screen.split('\n').filter((line) => /^.[> ] \S+\s+\S/.test(line) && !/\bSYSTEM\s+RUN\b/.test(line));
  return rows.findIndex((line) => SELECTED_ROW.test(line)) > 0;
}

/** Whether the screen shows `name` as the selected run. */
export function isSelected(screen: string, name: string): boolean {
  const row = selectedRow(screen);
  return row !== null && runRowPattern(name).test(row);
}

/** The screen once the selected run's name has stayed the same for `quietMs` (or `timeoutMs` passed). */
async function selectionSettled(stage: Stage, quietMs = 800, timeoutMs = 6000): Promise<string> {
  const end = Date.now() + timeoutMs;
  let screen = await captureText(stage);
  let since = Date.now();
  while (Date.now() < end && Date.now() - since < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await captureText(stage);
    if (selectedName(now) !== selectedName(screen)) since = Date.now();
    screen = now;
  }
  return screen;
}

/**
 * Moves the selection to the run named `name`, one key at a time, reading the screen after each:
 * the list re-sorts as runs change state, so positions are never assumed. The first key pins the
 * selection to a run (until then the UI shows the first row as selected, whichever run that is).
 */
export async function selectRun(stage: Stage, name: string, timeoutMs = 15_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  const row = runRowPattern(name);
  let screen = await captureText(stage);
  let pinned = false;
  while (Date.now() < end) {
    const lines = screen.split('\n');
    const target = lines.findIndex((line) => row.test(line));
    const selected = lines.findIndex((line) => SELECTED_ROW.test(line));
    if (pinned && target >= 0 && target === selected) {
      // On a slow machine a key pressed earlier may still be on its way: the run must stay selected.
      const settled = await selectionSettled(stage, 600, 4000);
      if (isSelected(settled, name)) return settled;
      screen = settled;
      continue;
    }
    // Off screen (a short list scrolls) or not pinned yet: step down; else step towards it.
    const key =
      target < 0 || selected < 0 || !pinned
        ? selected === lines.length - 1
          ? 'Up'
          : 'Down'
        : target > selected
          ? 'Down'
          : 'Up';
    const before = selectedName(screen);
    const landed = pinned ? (now: string) => selectedName(now) !== before : offFirstRow;
    await pressKeys(stage, key);
    pinned = true;
    // Wait for this key to land before reading the next step, so keys never pile up. Once pinned,
    // only a key changes the selected run (its row also changes with its state, so the name is
    // compared); before that the first row shows as selected, whichever run a re-sort puts there.
    // A key that has not shown yet may still land: on a slow machine the next step is read only
    // once the selection has stopped moving, so a late key is never followed by a second one.
    screen = await waitForScreen(stage, landed, { timeoutMs: 4000, what: 'the selection to move' }).catch(() =>
      selectionSettled(stage),
    );
  }
  throw new Error(`could not select run ${name}; the screen was:\n${screen}`);
}

/**
 * Selects a run through the filter: `/`, its name, Enter (the first match is selected), Esc (the
 * filter is cleared, the selection stays). Unlike stepping with arrow keys, nothing can overshoot
 * when the screen is slow to follow the keys.
 */
async function selectByFilter(stage: Stage, name: string): Promise<string> {
  await pressKeys(stage, '/');
  await waitForScreen(stage, 'filter:', { what: 'the filter prompt' });
  await typeText(stage, name);
  await waitForScreen(stage, `filter: ${name}`, { what: `the filter ${name}` });
  await pressKeys(stage, 'Enter');
  await waitForScreen(stage, (s) => isSelected(s, name), { what: `${name} selected` });
  await pressKeys(stage, 'Escape');
  return waitForScreen(stage, (s) => !s.includes('filter:') && isSelected(s, name), {
    what: `${name} selected, filter cleared`,
  });
}

/** Waits until no condition text is on the screen (a dialog or prompt closed). */
async function waitGone(stage: Stage, text: string): Promise<void> {
  await waitForScreen(stage, (screen) => !screen.includes(text), { what: `"${text}" to go away` });
}

interface ShotContext {
  outDir: string;
  scale?: number;
  log: (line: string) => void;
  shots: SavedShot[];
}

/** The text of a `capture-pane -e` dump (tmux emits only SGR sequences). */
const plain = (capture: string): string => capture.replace(/\x1b\[[0-9;:]*m/g, '');

/** Saves the screen once it is quiet; with `run`, only while that run is the selected one. */
async function shoot(ctx: ShotContext, stage: Stage, name: string, title: string, run?: string): Promise<void> {
  let capture = await waitForQuiet(stage, { quietMs: 400 });
  for (let tries = 0; run !== undefined && !isSelected(plain(capture), run); tries++) {
    if (tries === 3) throw new Error(`${run} does not stay selected for the ${name} shot`);
    await selectByFilter(stage, run);
    capture = await waitForQuiet(stage, { quietMs: 400 });
  }
  const shot = await saveShot(
    ctx.outDir,
    name,
    capture,
    { cols: stage.cols, rows: stage.rows },
    {
      title,
      ...(ctx.scale !== undefined ? { scale: ctx.scale } : {}),
    },
  );
  ctx.log(`shot ${name} (${stage.cols}×${stage.rows})`);
  ctx.shots.push(shot);
}

/** The scenes at 140×42, in an order the demo's clock allows. */
async function wideScenes(ctx: ShotContext, stage: Stage, sandbox: DemoSandbox): Promise<void> {
  await waitForScreen(
    stage,
    (s) => ['checkout-flow', 'sheets-clone', 'EPIC-042', 'docs-refresh'].every((n) => s.includes(n)),
    {
      timeoutMs: 20_000,
      what: 'the runs list',
    },
  );
  await selectByFilter(stage, 'checkout-flow');
  await waitForScreen(stage, 'Tasks', { what: 'the tina run detail' });
  await shoot(ctx, stage, 'control-room', 'tower — control room', 'checkout-flow');

  // The lead raises checkpoint-needed: the run waits on a context gate.
  await waitForScreen(stage, /checkpoint due/, { timeoutMs: SCENE_TIMEOUT_MS, what: 'the context signal' });
  await selectByFilter(stage, 'checkout-flow');
  await waitForScreen(stage, '[CTX]', { what: 'the context gate in the gates pane' });
  await shoot(ctx, stage, 'context-gate', 'tower — checkpoint-needed raises a context gate', 'checkout-flow');

  await pressKeys(stage, '?');
  // The overlay's first page: every key is on it once scrolled, the last ones not before.
  await waitForScreen(stage, (s) => s.includes('Navigate') && s.includes('Keys'), { what: 'the help overlay' });
  await shoot(ctx, stage, 'help', 'tower — ? shows every key');
  await pressKeys(stage, 'Escape');
  await waitGone(stage, 'Navigate');

  // The harness fires pre-done; g asks before writing the grant file, n leaves it unwritten.
  await waitForScreen(stage, /pre-done/, { timeoutMs: SCENE_TIMEOUT_MS, what: 'the harness checkpoint' });
  await selectByFilter(stage, 'sheets-clone');
  await pressKeys(stage, 'g');
  await waitForScreen(stage, (s) => s.includes('Grant pre-done') && s.includes('granted at'), {
    what: 'the grant confirmation',
  });
  await shoot(ctx, stage, 'confirm-grant', 'tower — g confirms the exact file write');
  await pressKeys(stage, 'n');
  await waitGone(stage, 'Grant pre-done');
  const grantFile = sandbox.roots
    .map((r) => path.join(r, '.papercusp', 'checkpoint-pre-done.md.granted'))
    .find((f) => fs.existsSync(f));
  if (grantFile) throw new Error(`cancelling the grant still wrote ${grantFile}`);

  await pressKeys(stage, '/');
  await waitForScreen(stage, 'filter:', { what: 'the filter prompt' });
  await typeText(stage, 'tina');
  await waitForScreen(stage, /filter: tina[\s\S]*search-index|filter: tina[\s\S]*checkout-flow/, {
    what: 'the filtered list',
  });
  await shoot(ctx, stage, 'filter', 'tower — / filters the runs as you type');
  await pressKeys(stage, 'Escape');
  await waitGone(stage, 'filter:');

  // docs-refresh: writer-2 sits at a permission question; the team pane, the runs list and the preview show it.
  await selectByFilter(stage, 'docs-refresh');
  await waitForScreen(stage, '? question', { timeoutMs: SCENE_TIMEOUT_MS, what: 'writer-2 at its question' });
  await pressKeys(stage, 'Tab');
  await waitForScreen(stage, '[> Team', { what: 'the team pane focused' });
  const onWriter2 = (screen: string) => /[│┃]>\s+writer-2\b/.test(screen);
  for (let i = 0; i < 6 && !onWriter2(await captureText(stage)); i++) {
    await pressKeys(stage, 'j');
    await waitForQuiet(stage, { quietMs: 200 });
  }
  await waitForScreen(stage, (s) => s.includes('Preview · writer-2') && s.includes('Do you want to proceed?'), {
    what: "writer-2's pane in the preview",
  });
  await shoot(ctx, stage, 'preview', 'tower — the preview and a member waiting at a question', 'docs-refresh');
  await pressKeys(stage, 'Escape');
}

/** Stops the sandbox and removes the socket file its tmux server leaves behind. */
async function stopSandbox(sandbox: DemoSandbox): Promise<void> {
  const tmux = new TmuxClient({ name: sandbox.socketName });
  const socketPath = (await tmux.run(['display-message', '-p', '#{socket_path}']).catch(() => '')).trim();
  await sandbox.stop().catch(() => undefined);
  if (socketPath) fs.rmSync(socketPath, { force: true });
}

/** Takes every demo shot into `outDir`: control-room, context-gate, help, confirm-grant, filter, preview, narrow-80x24. */
export async function takeDemoShots(outDir: string, opts: DemoShotOptions = {}): Promise<SavedShot[]> {
  const ctx: ShotContext = {
    outDir,
    log: opts.log ?? (() => undefined),
    shots: [],
    ...(opts.scale !== undefined ? { scale: opts.scale } : {}),
  };
  const xdg = privateXdg();
  const sandboxDir = makeTempSandboxDir();
  let sandbox: DemoSandbox | undefined;
  const stages: Stage[] = [];
  const open = async (cols: number, rows: number, command: string): Promise<Stage> => {
    const stage = await openStage({
      socketName: privateSocket('tower-shots-ui'),
      command,
      cols,
      rows,
      env: xdg.env,
      cwd: sandboxDir,
    });
    stages.push(stage);
    return stage;
  };
  try {
    sandbox = await buildSandbox(sandboxDir, { socketName: privateSocket() });
    ctx.log(`sandbox at ${sandbox.dir} on tmux -L ${sandbox.socketName}`);
    const command = towerCommand(sandbox);

    await wideScenes(ctx, await open(140, 42, command), sandbox);

    const narrow = await open(80, 24, command);
    await waitForScreen(narrow, 'checkout-flow', { timeoutMs: 20_000, what: 'the runs list at 80×24' });
    await selectRun(narrow, 'checkout-flow');
    await waitForScreen(narrow, 'Tasks', { what: 'the pane tabs' });
    await shoot(ctx, narrow, 'narrow-80x24', 'tower — 80×24', 'checkout-flow');
    return ctx.shots;
  } catch (err) {
    // Say what the screen showed when a scene failed, then clean up.
    const last = stages.at(-1);
    if (last) ctx.log(`last screen:\n${await captureText(last).catch(() => '(gone)')}`);
    throw err;
  } finally {
    for (const stage of stages) await closeStage(stage).catch(() => undefined);
    if (sandbox) await stopSandbox(sandbox);
    fs.rmSync(sandboxDir, { recursive: true, force: true });
    xdg.cleanup();
  }
}
