/**
 * The demo's acceptance test: tower (bundled from the current source) runs in a 140×42 pane of a
 * private tmux server and is used the way an operator uses it, on the demo sandbox (its fake
 * agents on a second private server): wait for the lead's context signal, run the checkpoint
 * cycle, rehydrate, grant the harness gate, force-terminate teammates, read the audit log, quit.
 * Every step is checked on the screen and in the files and panes it is meant to change.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../scripts/render/stage.js';
import { captureText, killPrivateServer, openStage, waitForScreen } from '../../scripts/render/stage.js';
import { shellQuote } from '../../src/demo/panes.js';
import type { DemoSandbox } from '../../src/demo/sandbox.js';
import { buildSandbox } from '../../src/demo/sandbox.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { defaultBindings, keysLabel } from '../../src/keys/keymap.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { removeAfterFile, removeTree } from '../helpers/leftovers.js';
import {
  buildTowerFromSource,
  focusPane,
  isRunSelected,
  livePaneIds,
  memberRow,
  press,
  selectMember,
  selectRun,
  waitForAgentPane,
} from './demo-operator.js';

/** Fast enough that the lead's context reaches the signal in ~4 s, slow enough that it takes ~15 s to come back after a rehydrate. */
const AGENT_SPEED = 5;
/** Short waits, so a step that goes wrong fails in seconds rather than minutes. */
const CONFIG = {
  checkpointTimeoutSec: 20,
  rehydrateTimeoutSec: 20,
  stragglerAfterSec: 5,
  killGraceSec: 0.5,
  pollIntervalMs: 500,
};

/** The gates pane's row of a pending context gate, and of the harness gate in each state. */
const CONTEXT_PENDING = /\[CTX\]\s+context\s.*\bpending\b/;
const PRE_DONE_PENDING = /\[CHK\]\s+pre-done\s.*\bpending\b/;
const PRE_DONE_GRANTED = /\[CHK\]\s+pre-done\s.*\bgranted\b/;

let work: string;
let sandbox: DemoSandbox | undefined;
let agents: TmuxClient;
let stage: Stage | undefined;
let stateHome: string;
/** When the run began, to check the grant's timestamp against. */
let startedAt: number;
/** Where the notify command writes one line per notification. */
let told: string;

/** Waits for the screen; on timeout the error names the step and quotes the last screen. */
function screenShows(
  condition: string | RegExp | ((screen: string) => boolean),
  what: string,
  timeoutMs = 15_000,
): Promise<string> {
  if (!stage) throw new Error('tower is not running');
  return waitForScreen(stage, condition, { what, timeoutMs });
}

/** The confirm dialog's last line (its keys), painted after the effects above it. */
const CONFIRM_KEYS = `${keysLabel(defaultBindings(), 'confirm')} run it`;

/** Waits for a whole confirm dialog: its title, and its keys line below every effect. */
function confirmDialog(title: string, what: string): Promise<string> {
  return screenShows((s) => s.includes(title) && s.includes(CONFIRM_KEYS), what);
}

/** Waits for a file to exist; on timeout the error quotes tower's screen, to show what it saw meanwhile. */
async function fileAppears(file: string, what: string, timeoutMs = 20_000): Promise<void> {
  try {
    await waitFor(() => fs.existsSync(file), timeoutMs, { intervalMs: 100, what });
  } catch (err) {
    const screen = stage ? await captureText(stage).catch(() => '(gone)') : '(tower is not running)';
    throw new Error(`${(err as Error).message}; tower's screen was:\n${screen}`);
  }
}

/** A project root of the sandbox by its folder name. */
function project(name: string): string {
  const root = sandbox?.roots.find((r) => path.basename(r) === name);
  if (!root) throw new Error(`the sandbox has no project ${name} (roots: ${sandbox?.roots.join(', ')})`);
  return root;
}

/** The pane id the sandbox started for `<session>/<member>`. */
function paneOf(key: string): string {
  const id = sandbox?.panes.get(key);
  if (!id) throw new Error(`the sandbox started no pane ${key}`);
  return id;
}

const mtime = (file: string): number => fs.statSync(file).mtimeMs;

/** Whether a confirm dialog lists `kill-pane` of exactly this pane (`%1` is not `%10`). */
const killsPane = (dialog: string, socket: string, paneId: string): boolean =>
  new RegExp(`tmux -L ${socket} kill-pane -t ${paneId}(\\s|$)`, 'm').test(dialog);

/** The socket file of a private server, read before the server goes (tmux leaves it behind). */
async function socketPathOf(tmux: TmuxClient): Promise<string> {
  return (await tmux.run(['display-message', '-p', '#{socket_path}']).catch(() => '')).trim();
}

beforeAll(async () => {
  startedAt = Date.now();
  work = fs.realpathSync(removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-e2e-demo-'))));
  const tower = await buildTowerFromSource(path.join(work, 'build'));
  sandbox = await buildSandbox(path.join(work, 'sandbox'), {
    socketName: uniqueSocketName(),
    agentSpeed: AGENT_SPEED,
    agentScript: path.join(work, 'build', 'dist', 'demo-agent.js'),
  });
  agents = new TmuxClient({ name: sandbox.socketName }, 5000);

  const home = path.join(work, 'home');
  stateHome = path.join(home, 'state');
  for (const dir of [home, path.join(home, 'config'), stateHome]) fs.mkdirSync(dir, { recursive: true });
  const config = path.join(work, 'config.json');
  told = path.join(work, 'told.txt');
  const notify = { command: `echo "$TOWER_EVENT $TOWER_RUN $TOWER_GATE" >> ${shellQuote(told)}` };
  fs.writeFileSync(config, `${JSON.stringify({ ...CONFIG, notify })}\n`);

  const argv = [
    process.execPath,
    tower,
    ...sandbox.roots.flatMap((r) => ['--root', r]),
    '--claude-dir',
    sandbox.claudeDir,
    '-L',
    sandbox.socketName,
    '--config',
    config,
  ];
  // CI variables would make ink render as if to a log; NO_COLOR is dropped so the run is the same
  // everywhere. After tower, the shell says how it exited and stays: a live pane's cursor state is
  // what tower left (tmux hides the cursor of a dead pane).
  const command = `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX -u NO_COLOR ${argv.map(shellQuote).join(' ')}; echo TOWER-EXITED $?; exec sleep 3600`;
  stage = await openStage({
    socketName: uniqueSocketName(),
    command,
    cols: 140,
    rows: 42,
    term: 'xterm-256color',
    cwd: work,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: stateHome },
  });
}, 60_000);

afterAll(async () => {
  if (stage) await killPrivateServer(stage.tmux).catch(() => undefined);
  if (sandbox) {
    const socket = await socketPathOf(agents);
    await sandbox.stop().catch(() => undefined);
    if (socket) fs.rmSync(socket, { force: true });
  }
  if (work) removeTree(work);
}, 30_000);

describe('tower demo, used as an operator uses it', () => {
  it('shows every run, and the context gate once the checkout-flow lead raises checkpoint-needed', async () => {
    const runs = [
      /tina\s+checkout-flow/,
      /tina\s+search-index/,
      /claude\s+docs-refresh/,
      /harness\s+sheets-clone/,
      /sage\s+EPIC-042/,
      /dotagent\s+wf-\d+-auth/,
    ];
    await screenShows((s) => runs.every((r) => r.test(s)), 'every run of the sandbox in the runs list', 20_000);
    const signal = path.join(project('checkout-flow'), '.claude', 'tina', 'checkpoint-needed');
    await fileAppears(signal, `the lead to write ${signal}`);
    expect(JSON.parse(fs.readFileSync(signal, 'utf8'))).toMatchObject({ source: 'statusline' });

    if (!stage) throw new Error('tower is not running');
    await selectRun(stage, 'checkout-flow');
    const screen = await screenShows(
      (s) => isRunSelected(s, 'checkout-flow') && CONTEXT_PENDING.test(s),
      'the pending context gate of checkout-flow',
    );
    expect(screen).toMatch(/checkout-flow\s.*checkpoint due/);
  }, 45_000);

  it("shows the lead's output scrolling in the preview, from its own pane", async () => {
    if (!stage) throw new Error('tower is not running');
    await selectRun(stage, 'checkout-flow');
    const shown = await screenShows(/Preview · team-lead %\d+/, "the lead's pane in the preview");
    const lead = /Preview · team-lead (%\d+)/.exec(shown)?.[1] ?? '';
    expect([
      paneOf('tina-checkout-flow-phase-2/team-lead'),
      paneOf('tina-checkout-flow-orchestration/team-lead'),
    ]).toContain(lead);
    // What the pane shows next appears in the preview, below what it showed before.
    await agents.sendLine(lead, 'status of the cart work');
    const after = await screenShows(/[│❯] ?status of the cart work/, 'the preview to follow new output');
    expect(after).toMatch(new RegExp(`Preview · team-lead ${lead} .*· live`));
  }, 30_000);

  it("runs the checkpoint cycle: the confirm dialog shows the lead's pane and the exact command, the handoff is written", async () => {
    if (!stage) throw new Error('tower is not running');
    const socket = sandbox?.socketName ?? '';
    const lead = paneOf('tina-checkout-flow-phase-2/team-lead');
    const state = path.join(project('checkout-flow'), '.claude', 'tina');
    const signalAt = mtime(path.join(state, 'checkpoint-needed'));

    await selectRun(stage, 'checkout-flow');
    await press(stage, 'checkpoint');
    const dialog = await confirmDialog(
      `Checkpoint tina:checkout-flow (lead team-lead in ${lead})`,
      'the checkpoint confirm dialog',
    );
    expect(dialog).toContain(`tmux -L ${socket} send-keys -t ${lead} -l -- /tina:checkpoint`);
    expect(dialog).toContain(`tmux -L ${socket} send-keys -t ${lead} Enter`);

    await press(stage, 'confirm');
    await screenShows(
      /done checkpoint · checkpoint complete/,
      'the activity pane to report the checkpoint done',
      25_000,
    );

    const handoff = path.join(state, 'phase-2', 'handoff.md');
    expect(mtime(handoff)).toBeGreaterThan(signalAt);
    expect(fs.readFileSync(handoff, 'utf8')).toContain('# Phase 2 Checkpoint Handoff');
    const pane = await waitForAgentPane(agents, lead, 'CHECKPOINT COMPLETE');
    expect(pane).toContain('❯ /tina:checkpoint');
  }, 45_000);

  it('rehydrates the lead: REHYDRATE COMPLETE in its pane, the signal deleted, the context gate gone', async () => {
    if (!stage) throw new Error('tower is not running');
    const socket = sandbox?.socketName ?? '';
    const lead = paneOf('tina-checkout-flow-phase-2/team-lead');
    const signal = path.join(project('checkout-flow'), '.claude', 'tina', 'checkpoint-needed');

    await press(stage, 'rehydrate');
    const dialog = await confirmDialog(
      `Rehydrate tina:checkout-flow (lead team-lead in ${lead})`,
      'the rehydrate confirm dialog',
    );
    expect(dialog).toContain(`tmux -L ${socket} send-keys -t ${lead} -l -- /clear`);
    expect(dialog).toContain(`tmux -L ${socket} send-keys -t ${lead} -l -- /tina:rehydrate`);

    await press(stage, 'confirm');
    const pane = await waitForAgentPane(agents, lead, 'REHYDRATE COMPLETE', 20_000);
    expect(pane).toContain('❯ /tina:rehydrate');
    // tower deletes the signal before it waits for the lead, so it is gone by now (and the lead's
    // context, back at 15%, takes ~15 s to reach the threshold again).
    expect(fs.existsSync(signal)).toBe(false);
    const screen = await screenShows(
      (s) => isRunSelected(s, 'checkout-flow') && /done rehydrate · rehydrated/.test(s) && !CONTEXT_PENDING.test(s),
      'the context gate to go and the rehydrate to be reported done',
    );
    expect(screen).not.toMatch(/checkout-flow\s.*checkpoint due/);
  }, 45_000);

  it('grants the harness pre-done checkpoint once it has fired', async () => {
    if (!stage) throw new Error('tower is not running');
    const stateDir = path.join(project('sheets-clone'), '.papercusp');
    await fileAppears(path.join(stateDir, 'checkpoint-pre-done.md'), 'the harness to fire pre-done');

    await selectRun(stage, 'sheets-clone');
    await screenShows((s) => isRunSelected(s, 'sheets-clone') && PRE_DONE_PENDING.test(s), 'the pending pre-done gate');
    await press(stage, 'grant');
    const dialog = await confirmDialog('Grant pre-done of harness:sheets-clone', 'the grant confirm dialog');
    expect(dialog).toContain('granted at');

    await press(stage, 'confirm');
    const screen = await screenShows(
      (s) => PRE_DONE_GRANTED.test(s) && /done grant · granted pre-done/.test(s),
      'the pre-done gate shown granted',
    );
    expect(screen).not.toMatch(PRE_DONE_PENDING);
    const granted = fs.readFileSync(path.join(stateDir, 'checkpoint-pre-done.md.granted'), 'utf8');
    const at = /^granted at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)\n$/.exec(granted)?.[1];
    expect(at, JSON.stringify(granted)).toBeDefined();
    expect(Date.parse(at ?? '')).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(Date.parse(at ?? '')).toBeLessThanOrEqual(Date.now());
  }, 45_000);

  it('marks the writer waiting at a permission question in the team pane and the runs list', async () => {
    if (!stage) throw new Error('tower is not running');
    const writer2 = paneOf('docs-refresh/writer-2');
    await selectRun(stage, 'docs-refresh');
    const screen = await screenShows(
      (s) => /\? question/.test(memberRow(s, writer2) ?? ''),
      'writer-2 marked at a question',
      20_000,
    );
    // writer-2 asks first; the team's Codex, opencode and Gemini CLI members ask too by now.
    expect(screen).toMatch(/claude\s+docs-refresh\s.*\s\d\s.*writer-2 asks a question/);
    const pane = await waitForAgentPane(agents, writer2, 'Do you want to proceed?');
    expect(pane).toContain('❯ 1. Yes');
  }, 30_000);

  it('tells the operator when the harness fires a checkpoint: the notify command runs, the title counts', async () => {
    if (!stage) throw new Error('tower is not running');
    const stateDir = path.join(project('sheets-clone'), '.papercusp');
    fs.writeFileSync(path.join(stateDir, 'checkpoint-e2e-review.md'), '# Checkpoint: e2e-review (manual request)\n');
    await waitFor(() => fs.existsSync(told) && fs.readFileSync(told, 'utf8').includes('e2e-review'), 15_000, {
      what: 'the notify command',
    });
    const lines = fs.readFileSync(told, 'utf8').trimEnd().split('\n');
    expect(lines).toContain('gate-opened harness:sheets-clone e2e-review');
    // What the first snapshot already showed (SAGE's human gate) was never news.
    expect(lines.some((l) => l.includes('hitl'))).toBe(false);
    expect(lines.filter((l) => l.includes('e2e-review'))).toHaveLength(1);
    expect(await stage.tmux.displayMessage(stage.paneId, '#{pane_title}')).toMatch(/^tower · \d+ needs? you$/);
  }, 30_000);

  it('force-terminates one teammate selected in the team pane, and nobody else', async () => {
    if (!stage) throw new Error('tower is not running');
    const socket = sandbox?.socketName ?? '';
    const [lead, writer1, writer2] = ['team-lead', 'writer-1', 'writer-2'].map((m) => paneOf(`docs-refresh/${m}`)) as [
      string,
      string,
      string,
    ];

    await selectRun(stage, 'docs-refresh');
    await focusPane(stage, 'Team');
    await selectMember(stage, 'writer-1');
    await press(stage, 'terminate');
    const dialog = await confirmDialog(
      `Force-terminate writer-1 (${writer1}) in claude-team:docs-refresh`,
      'the terminate confirm dialog',
    );
    expect(killsPane(dialog, socket, writer1)).toBe(true);
    for (const other of [lead, writer2]) expect(killsPane(dialog, socket, other), `kill-pane of ${other}`).toBe(false);

    await press(stage, 'confirm');
    const screen = await screenShows(
      (s) => /done terminate · force-terminated writer-1/.test(s) && /✗ dead/.test(memberRow(s, writer1) ?? ''),
      'writer-1 shown dead',
    );
    expect(memberRow(screen, lead)).toMatch(/● alive/);
    expect(memberRow(screen, writer2)).toMatch(/● alive/);
    const live = await livePaneIds(agents);
    expect(live.has(writer1)).toBe(false);
    expect(live.has(lead)).toBe(true);
    expect(live.has(writer2)).toBe(true);
  }, 45_000);

  it("force-terminates the tina run's teammates, never its leads", async () => {
    if (!stage) throw new Error('tower is not running');
    const socket = sandbox?.socketName ?? '';
    const session = 'tina-checkout-flow-phase-2';
    const leads = [paneOf(`${session}/team-lead`), paneOf('tina-checkout-flow-orchestration/team-lead')];
    const teammates = ['worker-1', 'worker-2', 'spec-reviewer', 'code-quality-reviewer'].map((m) =>
      paneOf(`${session}/${m}`),
    );

    // Back to the runs list, so the selection keys move through runs again.
    await press(stage, 'back');
    await screenShows('[> Runs', 'the runs list focused');
    await selectRun(stage, 'checkout-flow');
    await press(stage, 'terminate');
    const dialog = await confirmDialog('Force-terminate worker-1', 'the terminate confirm dialog of checkout-flow');
    for (const id of teammates) expect(killsPane(dialog, socket, id), `kill-pane of ${id}`).toBe(true);
    for (const id of leads) expect(killsPane(dialog, socket, id), `kill-pane of lead ${id}`).toBe(false);

    await press(stage, 'confirm');
    const screen = await screenShows(
      (s) =>
        (s.match(/done terminate · force-terminated/g) ?? []).length === 2 &&
        teammates.every((id) => /✗ dead/.test(memberRow(s, id) ?? '')),
      'the four teammates shown dead',
    );
    for (const id of leads) expect(memberRow(screen, id)).toMatch(/● alive/);
    const live = await livePaneIds(agents);
    for (const id of teammates) expect(live.has(id), `pane ${id}`).toBe(false);
    for (const id of leads) expect(live.has(id), `lead pane ${id}`).toBe(true);
  }, 45_000);

  it('logged one audit line per action, all done; q quits and restores the terminal', async () => {
    if (!stage) throw new Error('tower is not running');
    const audit = fs
      .readFileSync(path.join(stateHome, 'tower', 'audit.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.outcome !== 'begun');
    expect(audit.map((e) => [e.action, e.run, e.outcome])).toEqual([
      ['checkpoint', 'tina:checkout-flow', 'done'],
      ['rehydrate', 'tina:checkout-flow', 'done'],
      ['grant', 'harness:sheets-clone', 'done'],
      ['terminate', 'claude-team:docs-refresh', 'done'],
      ['terminate', 'tina:checkout-flow', 'done'],
    ]);
    expect(audit[0]?.target).toBe(paneOf('tina-checkout-flow-phase-2/team-lead'));
    expect(audit[2]?.target).toBe('pre-done');
    expect(audit[3]?.target).toBe('writer-1');

    await press(stage, 'quit');
    await screenShows(/^TOWER-EXITED 0$/m, 'tower to exit with 0');
    // tower's process is gone: the pane runs what the shell went on to.
    expect(await stage.tmux.displayMessage(stage.paneId, '#{pane_current_command}')).toBe('sleep');
    // Out of the alternate screen, cursor shown: what tower found is what it left.
    expect(await stage.tmux.displayMessage(stage.paneId, '#{alternate_on}')).toBe('0');
    expect(await stage.tmux.displayMessage(stage.paneId, '#{cursor_flag}')).toBe('1');
    expect(await captureText(stage)).not.toContain('Runs ·');
  }, 30_000);
});
