/**
 * Agents of a project, through the real Codex CLI 0.169.0 and the built tower: a Codex pane outside
 * every run is listed as a run of its folder (`agents:<folder>`), with `agent: "codex"` and the
 * state Codex's own sources give; a second Codex pane in another folder is a run of its own; a pane
 * running a plain process (`sleep`) is not an agent and is not listed; and `tower send` types into
 * such a member and `tower answer` approves its dialog. One CLI home and one tmux server, shared by the cases in order.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type BuiltCli } from '../helpers/built-cli.js';
import { openCodexPane, startCodex, type CodexPane, type CodexRun } from '../helpers/codex-cli/launch.js';
import { lastCallOutput, lastUserText } from '../helpers/codex-cli/responses-api.js';
import { DIALOG_QUESTION, afterRunTurn, escalationTurn } from '../helpers/codex-cli/scenarios.js';
import { waitFor } from '../helpers/wait-for.js';

const run = promisify(execFile);

interface StatusMember {
  name: string;
  paneId: string | null;
  state: string;
  agent?: string;
  activity?: string;
  activitySource?: string | null;
  prompt?: { question: string; subject: string[] };
}
interface StatusRun {
  id: string;
  system: string;
  root: string | null;
  status: string;
  members: StatusMember[];
}

let cli: BuiltCli;
let c: CodexRun;
let b: CodexPane;
let sleeper: { paneId: string; folder: string };

function towerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: c.home,
    XDG_STATE_HOME: path.join(c.home, '.local/state'),
    XDG_CONFIG_HOME: path.join(c.home, '.config'),
    TMUX_TMPDIR: c.tmuxDir,
    TMUX: '',
  };
  delete env.CODEX_HOME;
  return env;
}

async function tower(...args: string[]): Promise<string> {
  const claudeDir = path.join(c.home, '.claude');
  const { stdout } = await run(process.execPath, [cli.bin, ...args, '-S', c.socketPath, '--claude-dir', claudeDir], {
    env: towerEnv(),
    timeout: 30_000,
  });
  return stdout;
}

async function status(): Promise<StatusRun[]> {
  return (JSON.parse(await tower('status', '--json')) as { runs: StatusRun[] }).runs;
}

beforeAll(async () => {
  [cli, c] = await Promise.all([
    buildCli(),
    startCodex({
      columns: 100,
      rows: 40,
      script: [
        escalationTurn('make the file', 'touch approved.txt', 'Create approved.txt outside the sandbox?'),
        afterRunTurn('make the file', 'Created approved.txt.'),
      ],
    }),
  ]);
  fs.mkdirSync(path.join(c.home, '.claude'), { recursive: true });
  await c.ready();
  b = await openCodexPane(c, 'project-b');
  await c.waitForScreen(/← for agents/, 60_000, b.paneId);
  const folder = path.join(c.dir, 'idle-shell');
  fs.mkdirSync(folder);
  // tmux 3.3a's server exits on new-window under `window-size manual` (seen): latest while it opens.
  await c.tmux.run(['set-option', '-g', 'window-size', 'latest']);
  const out = await c.tmux.run(['new-window', '-d', '-P', '-F', '#{pane_id}', '-c', folder, 'exec sleep 600']);
  await c.tmux.run(['set-option', '-g', 'window-size', 'manual']);
  sleeper = { paneId: out.trim(), folder };
}, 150_000);

afterAll(async () => {
  await c?.stop();
});

describe('agents of a project: Codex panes outside every run', { timeout: 90_000 }, () => {
  it('lists each Codex pane as an agent of its folder, one run per folder, and never a plain process', async () => {
    const runs = await waitFor(
      async () => {
        const rs = await status();
        const a = rs.find((r) => r.root === c.project);
        return a?.members[0]?.activity === 'waiting' ? rs : null;
      },
      45_000,
      { intervalMs: 300, what: 'the Codex pane listed as an agent of its project, waiting at its box' },
    );
    const a = runs.find((r) => r.root === c.project)!;
    expect(a).toMatchObject({ id: 'agents:project', system: 'agents', status: 'waiting' });
    expect(a.members).toHaveLength(1);
    expect(a.members[0]).toMatchObject({ paneId: c.paneId, state: 'alive', agent: 'codex', activity: 'waiting' });

    const other = runs.find((r) => r.root === b.project);
    expect(other).toMatchObject({ id: 'agents:project-b', system: 'agents' });
    expect(other!.members.map((m) => [m.paneId, m.agent])).toEqual([[b.paneId, 'codex']]);

    // `sleep` is no agent CLI: its pane and folder are in no run.
    expect(runs.some((r) => r.root === sleeper.folder)).toBe(false);
    expect(runs.flatMap((r) => r.members).some((m) => m.paneId === sleeper.paneId)).toBe(false);
  });

  it('tower send types a line into such a member, and Codex submits it', async () => {
    const before = c.api.requests.length;
    await tower('send', 'agents:project-b', 'note from tower', '--member', b.paneId);
    await waitFor(
      () => c.api.requests.slice(before).some((r) => lastUserText(r).includes('note from tower')) || null,
      45_000,
      { intervalMs: 200, what: 'the line sent by tower to reach the API stand-in' },
    );
    // Only b's conversation got it: the other Codex was never typed into.
    expect(await c.screen()).not.toContain('note from tower');
  });

  it('tower answer approves the dialog such a member shows, and the command runs', async () => {
    await c.submit('make the file');
    await c.waitForScreen(DIALOG_QUESTION, 60_000);
    const asking = await waitFor(
      async () => {
        const m = (await status()).find((r) => r.id === 'agents:project')?.members[0];
        return m?.prompt ? m : null;
      },
      45_000,
      { intervalMs: 300, what: "the dialog read in the lone Codex member's pane" },
    );
    expect(asking).toMatchObject({ agent: 'codex', activity: 'waiting' });
    expect(asking.prompt!.subject).toContain('$ touch approved.txt');
    const before = c.api.requests.length;
    await tower('answer', 'agents:project', '1', '--member', c.paneId);
    await waitFor(() => c.api.requests.slice(before).some((r) => lastCallOutput(r) !== null) || null, 45_000, {
      intervalMs: 200,
      what: "the approved command's output to reach the API stand-in",
    });
    expect(fs.existsSync(path.join(c.project, 'approved.txt'))).toBe(true);
  });
});
