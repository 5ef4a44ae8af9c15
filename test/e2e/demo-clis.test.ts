/**
 * The demo's four agent CLIs side by side, through the real terminal path: tower (bundled from the
 * current source) in a pane of a private tmux server, on the demo sandbox whose docs-refresh team has
 * Claude Code, Codex, opencode and Gemini CLI members (stand-ins drawing what each real CLI draws).
 * Each is read by its own module (`agent` in `status --json`, the team pane's CLI column), and `1` on
 * the screen answers the Codex stand-in's dialog, checked again and typed as Codex takes it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../scripts/render/stage.js';
import { killPrivateServer, openStage, waitForScreen } from '../../scripts/render/stage.js';
import { shellQuote } from '../../src/demo/panes.js';
import type { DemoSandbox } from '../../src/demo/sandbox.js';
import { buildSandbox } from '../../src/demo/sandbox.js';
import { defaultBindings, keysLabel } from '../../src/keys/keymap.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { removeAfterFile, removeTree } from '../helpers/leftovers.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import {
  buildTowerFromSource,
  focusPane,
  memberRow,
  press,
  selectMember,
  selectRun,
  waitForAgentPane,
} from './demo-operator.js';

/** The confirm dialog's last line (its keys), painted after what it approves. */
const CONFIRM_KEYS = `${keysLabel(defaultBindings(), 'confirm')} run it`;

/** Fast enough that the Codex stand-in asks within ~3 s, opencode's and Gemini CLI's within ~6 s. */
const AGENT_SPEED = 5;

let work: string;
let tower: string;
let sandbox: DemoSandbox | undefined;
let agents: TmuxClient;
let stage: Stage | undefined;
let home: string;

const paneOf = (key: string): string => {
  const id = sandbox?.panes.get(key);
  if (!id) throw new Error(`no pane ${key} in the sandbox`);
  return id;
};

/** tower's own arguments on the sandbox. */
const towerArgs = (): string[] => [
  ...(sandbox?.roots ?? []).flatMap((r) => ['--root', r]),
  '--claude-dir',
  sandbox?.claudeDir ?? '',
  '-L',
  sandbox?.socketName ?? '',
];

beforeAll(async () => {
  work = fs.realpathSync(removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-e2e-demo-clis-'))));
  tower = await buildTowerFromSource(path.join(work, 'build'));
  sandbox = await buildSandbox(path.join(work, 'sandbox'), {
    socketName: uniqueSocketName(),
    agentSpeed: AGENT_SPEED,
    agentScript: path.join(work, 'build', 'dist', 'demo-agent.js'),
  });
  agents = new TmuxClient({ name: sandbox.socketName }, 5000);
  home = path.join(work, 'home');
  for (const dir of ['config', 'state']) fs.mkdirSync(path.join(home, dir), { recursive: true });
  const argv = [process.execPath, tower, ...towerArgs()];
  stage = await openStage({
    socketName: uniqueSocketName(),
    command: `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX -u NO_COLOR ${argv.map(shellQuote).join(' ')}; echo TOWER-EXITED $?; exec sleep 3600`,
    cols: 160,
    rows: 48,
    cwd: work,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state') },
  });
}, 60_000);

afterAll(async () => {
  if (stage) await killPrivateServer(stage.tmux).catch(() => undefined);
  if (sandbox) await sandbox.stop().catch(() => undefined);
  if (work) removeTree(work);
}, 30_000);

describe('the demo shows four agent CLIs side by side', () => {
  it('status --json names each member its own CLI, read by that CLI module from its screen', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [tower, 'status', '--json', ...towerArgs()], {
      env: { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, 'state') },
    });
    const status = JSON.parse(stdout) as {
      runs: { id: string; members: { name: string; agent?: string; activitySource?: string | null }[] }[];
    };
    const team = status.runs.find((r) => r.id === 'claude-team:docs-refresh');
    const agentOf = (name: string) => team?.members.find((m) => m.name === name);
    expect(agentOf('team-lead')).toMatchObject({ agent: 'claude-code', activitySource: 'screen' });
    expect(agentOf('examples')).toMatchObject({ agent: 'codex', activitySource: 'screen' });
    expect(agentOf('style')).toMatchObject({ agent: 'opencode', activitySource: 'screen' });
    expect(agentOf('translator')).toMatchObject({ agent: 'gemini-cli', activitySource: 'screen' });
  }, 30_000);

  it('the team pane shows each CLI, and 1 answers the Codex dialog as Codex takes it', async () => {
    if (!stage) throw new Error('tower is not running');
    const codex = paneOf('docs-refresh-clis/examples');
    await selectRun(stage, 'docs-refresh');
    const screen = await waitForScreen(
      stage,
      (s) =>
        /\scx\s/.test(memberRow(s, codex) ?? '') &&
        /\soc\s/.test(memberRow(s, paneOf('docs-refresh-clis/style')) ?? '') &&
        /\sgm\s/.test(memberRow(s, paneOf('docs-refresh-clis/translator')) ?? '') &&
        /\scc\s/.test(memberRow(s, paneOf('docs-refresh/writer-1')) ?? '') &&
        /\? question/.test(memberRow(s, codex) ?? ''),
      { what: 'the CLI of every member, the Codex one at its question', timeoutMs: 30_000 },
    );
    expect(memberRow(screen, codex)).toMatch(/examples\s.*\scx\s+%\d+\s/);

    await focusPane(stage, 'Team');
    await selectMember(stage, 'examples');
    await waitForScreen(stage, (s) => s.includes('Would you like to run the following command?'), {
      what: 'the Codex dialog in the preview',
    });
    await press(stage, 'answer-1');
    const dialog = await waitForScreen(stage, (s) => s.includes('Yes, proceed (y)') && s.includes(CONFIRM_KEYS), {
      what: 'the answer dialog, naming what it approves',
    });
    expect(dialog).toContain('npm run test:examples');
    await press(stage, 'confirm');
    await waitForScreen(stage, /answered 1 \(Yes, proceed \(y\)\) to examples/, { what: 'the answer taken' });
    const pane = await waitForAgentPane(agents, codex, 'You approved codex to run npm run test:examples this time');
    expect(pane).not.toContain('Would you like to run the following command?');
    expect(pane).toContain('› Ask Codex to do anything');
  }, 60_000);
});

describe('the runs whose systems name no pane show the pane that works in their folder', () => {
  it('status --json seats the harness, SAGE and dotagent panes with their process; the preview shows the runner', async () => {
    if (!stage) throw new Error('tower is not running');
    const { stdout } = await promisify(execFile)(process.execPath, [tower, 'status', '--json', ...towerArgs()], {
      env: { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, 'state') },
    });
    const status = JSON.parse(stdout) as {
      runs: {
        system: string;
        members: { name: string; paneId: string; state: string; paneProcess?: { pid: number } }[];
      }[];
    };
    const panes = await agents.listPanes();
    for (const [system, session] of [
      ['harness', 'papercusp-sheets-clone'],
      ['sage', 'sage-billing'],
      ['dotagent', 'dotagent-auth-service'],
    ] as const) {
      const pane = panes.find((p) => p.session === session);
      const run = status.runs.find((r) => r.system === system);
      expect(run?.members).toEqual([
        expect.objectContaining({
          name: session,
          paneId: pane?.paneId,
          state: 'alive',
          paneProcess: expect.objectContaining({ pid: pane?.pid }),
        }),
      ]);
    }
    const runner = paneOf('papercusp-sheets-clone/run.sh');
    await focusPane(stage, 'Runs');
    await selectRun(stage, 'sheets-clone');
    const screen = await waitForScreen(
      stage,
      (s) => s.includes(`Preview · papercusp-sheets-clone ${runner}`) && s.includes('papercusp run.sh · sheets-clone'),
      { what: "the harness runner's pane in the preview", timeoutMs: 20_000 },
    );
    expect(screen).not.toContain('no member of this run has a tmux pane');
  }, 45_000);
});
