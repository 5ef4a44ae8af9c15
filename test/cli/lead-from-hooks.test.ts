/**
 * The lead of a Claude Code session team (`tmuxPaneId: "leader"`, in-process) found from its own hook
 * events when neither a session file nor `leadProcess` places it: the real hook line, run with the
 * real `$TMUX` and `$TMUX_PANE` of a pane of a real tmux server, names the session (`session_id` =
 * the team's `leadSessionId`), the server and the pane. Two servers hold the same `%N`: a pane of a
 * server tower does not read never stands for tower's; the newest event wins; the pane is checked
 * as any member's (started after the lead joined, or working in another folder: not its pane).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/commands/hooks-settings.js';
import type { Member, Run } from '../../src/model/model.js';
import { createWatchedStore } from '../../src/store/live-activity.js';
import { procStartOf } from '../../src/systems/claude-teams/sessions.js';
import { attachTarget } from '../../src/ui/state/requests.js';
import { previewMember } from '../../src/ui/state/selectors.js';
import { buildTower, fastConfig, tower } from '../actions/cli-kit.js';
import type { CliSetup } from '../actions/cli-kit.js';
import { readAudit } from '../actions/kit.js';
import { readFixture } from '../helpers/fixtures.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const AGENT = fileURLToPath(new URL('../fixtures/agents/asking-agent.mjs', import.meta.url));
const SESSION = '7d1e53a2-5c1b-4f0e-9a44-2b6f1c0d9e31';
const TEAM = 'session-7d1e53a2';
const RUN = `claude-team:${TEAM}`;

let bin: string;
beforeAll(async () => {
  bin = await buildTower();
}, 60_000);

/** Tower's own server, and another one whose panes are numbered alike. */
let own: TmuxFixture;
let other: TmuxFixture;
let home: string;
let project: string;
let s: CliSetup;

beforeEach(async () => {
  [own, other] = await Promise.all([startTmux(), startTmux()]);
  home = tempDir('tower-lead-hooks-');
  project = tempDir('tower-lead-project-');
  s = {
    tower: bin,
    home,
    flags: ['--claude-dir', path.join(home, '.claude'), '-L', own.name, '--config', fastConfig(home)],
  };
});
afterEach(async () => {
  await Promise.all([own.kill(), other.kill()]);
});

/**
 * The session team as Claude Code 2.1.332 writes it (the captured config), for this project and
 * session; without `leadProcess` (an older CLI, or a lead in another pid space) its hooks alone say
 * where it runs.
 */
function writeTeam(joinedAt: number, leadProcess?: { pid: number; procStart: string }): void {
  const captured = JSON.parse(readFixture('claude-code-2.1.332/teams/session-team/config.json')) as Record<
    string,
    unknown
  > & { members: Record<string, unknown>[] };
  const { leadProcess: _process, ...config } = captured;
  writeFile(path.join(home, '.claude', 'teams', TEAM, 'config.json'), {
    ...config,
    name: TEAM,
    leadAgentId: `team-lead@${TEAM}`,
    leadSessionId: SESSION,
    ...(leadProcess ? { leadProcess: { ...leadProcess, claimedAt: joinedAt } } : {}),
    members: captured.members.map((m) => ({ ...m, agentId: `${String(m.name)}@${TEAM}`, joinedAt, cwd: project })),
  });
}

/** The real payloads of 2.1.332's hooks (the captured events file), for this session and project. */
function payload(event: string): string {
  const line = readFixture('claude-code-2.1.332/hooks/events.team')
    .split('\n')
    .find((l) => l.includes(`"hook_event_name":"${event}"`));
  const json = JSON.parse(line!.split('\t').slice(3).join('\t')) as Record<string, unknown>;
  return JSON.stringify({ ...json, session_id: SESSION, cwd: project });
}

/** Runs the installed hook line as Claude Code does (`sh -c`, the payload on stdin) with the pane's own $TMUX and $TMUX_PANE. */
async function fire(server: TmuxFixture, paneId: string, event: string): Promise<void> {
  const pid = Number((await server.client.run(['display-message', '-p', '-t', paneId, '#{pane_pid}'])).trim());
  const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const from = (k: string) => environ.find((kv) => kv.startsWith(`${k}=`))?.slice(k.length + 1) ?? '';
  const env = {
    PATH: process.env.PATH!,
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    TMUX: from('TMUX'),
    TMUX_PANE: from('TMUX_PANE'),
  };
  expect(env.TMUX_PANE).toBe(paneId);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('sh', ['-c', hookCommand()], { env, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(payload(event));
  });
  expect(code).toBe(0);
}

async function lead(): Promise<Member> {
  const r = await tower(s, ['status', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  const run = (JSON.parse(r.stdout) as { runs: Run[] }).runs.find((x) => x.id === RUN);
  return run!.members.find((m) => m.lead)!;
}

/** A pane of each server in the project, running an agent that asks permission: the same %N on both. */
async function twoAgents(): Promise<string> {
  const [mine, theirs] = await Promise.all([
    own.newSession('lead', project, `node ${AGENT}`),
    other.newSession('lead', project, `node ${AGENT}`),
  ]);
  expect(mine).toBe(theirs);
  for (const server of [own, other])
    await waitFor(async () => (await server.client.capturePane(mine)).includes('Do you want to proceed?'), 5000, {
      what: 'the permission prompt',
    });
  return mine;
}

describe("a session team's lead placed by its own hook events", () => {
  it('is found in the pane its newest event names, on that server only; send, answer, preview and attach reach it', async () => {
    const pane = await twoAgents();
    writeTeam(Date.now());
    expect(await lead()).toMatchObject({ state: 'in-process', paneId: null, sessionId: SESSION });

    // Its hooks ran in the other server's %N: never tower's %N, and named when refused.
    await fire(other, pane, 'SessionStart');
    const elsewhere = await lead();
    const otherSocket = (await other.client.run(['display-message', '-p', '#{socket_path}'])).trim();
    expect(elsewhere).toMatchObject({ state: 'unknown', paneId: pane });
    expect(elsewhere.tmuxServerUnknown).toContain(`of the tmux server ${otherSocket}, which tower does not read`);
    const refused = await tower(s, ['send', RUN, 'hello from tower']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`tower: refused: team-lead of ${RUN}: its hooks place it in pane ${pane}`);

    // A newer event from tower's own server's %N: that pane is the lead's.
    await fire(own, pane, 'UserPromptSubmit');
    const here = await lead();
    expect(here).toMatchObject({ state: 'alive', paneId: pane });
    expect(here.tmuxServer ?? null).toBeNull();
    expect(here.tmuxServerUnknown).toBeUndefined();

    const answered = await tower(s, ['answer', RUN, '--member', 'team-lead', '1']);
    expect(answered.exitCode, answered.stderr).toBe(0);
    await waitFor(async () => (await own.client.capturePane(pane)).includes('allowed: deploying'), 5000);
    const sent = await tower(s, ['send', RUN, 'hello from tower']);
    expect(sent.exitCode, sent.stderr).toBe(0);
    await waitFor(async () => (await own.client.capturePane(pane)).includes('got: hello from tower'), 5000);
    // The other server's agent got nothing.
    const theirs = await other.client.capturePane(pane);
    expect(theirs).toContain('Do you want to proceed?');
    expect(theirs).not.toContain('hello from tower');
    expect(readAudit(home).map((a) => [a.action, a.target, a.outcome])).toEqual([
      ['send', null, 'refused'],
      ['answer', pane, 'done'],
      ['send', pane, 'done'],
    ]);

    // The control room: its live store seats the lead there, previews and attaches to that pane.
    const ctx = testContext({ claudeDir: path.join(home, '.claude'), socketName: own.name, home });
    ctx.env.XDG_STATE_HOME = path.join(home, 'state');
    const { store } = createWatchedStore(ctx);
    try {
      await store.start();
      const run = await waitFor(() => {
        const r = store.getSnapshot().runs.find((x) => x.id === RUN);
        return r?.members.find((m) => m.lead)?.state === 'alive' ? r : null;
      }, 10_000);
      expect(previewMember(run, null, 'runs')).toMatchObject({ name: 'team-lead', paneId: pane });
      expect(attachTarget({ run, focus: 'runs', member: null, gate: null })).toMatchObject({ ok: true, paneId: pane });
    } finally {
      await store.stop();
    }

    // The newest event wins: back on the other server, refused again.
    await fire(other, pane, 'Stop');
    expect(await lead()).toMatchObject({ state: 'unknown', tmuxServerUnknown: expect.stringContaining(otherSocket) });
  }, 90_000);

  it('is not placed in a pane that contradicts it: one working in another project, one started after it joined', async () => {
    const pane = await twoAgents();
    const elsewhere = tempDir('tower-lead-elsewhere-');
    const stranger = await own.newSession('stranger', elsewhere, `node ${AGENT}`);
    writeTeam(Date.now());

    await fire(own, stranger, 'SessionStart');
    const wrongFolder = await lead();
    expect(wrongFolder).toMatchObject({ state: 'not-its-pane', paneId: stranger });
    expect(wrongFolder.notItsPane).toContain(`works in ${elsewhere}, team-lead in ${project}`);
    const refused = await tower(s, ['send', RUN, 'hello from tower']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`tower: refused: team-lead of ${RUN}: not its pane: pane ${stranger}`);

    // The lead joined a minute before tower's %N was started: that pane is another agent's.
    writeTeam(Date.now() - 60_000);
    await fire(own, pane, 'UserPromptSubmit');
    const late = await lead();
    expect(late).toMatchObject({ state: 'not-its-pane', paneId: pane });
    expect(late.notItsPane).toMatch(/started at \S+, after team-lead joined/);
    const again = await tower(s, ['answer', RUN, '--member', 'team-lead', '1']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('not its pane');
    for (const p of [pane, stranger]) expect(await own.client.capturePane(p)).toContain('Do you want to proceed?');
  }, 90_000);

  it('is placed by its recorded process with no session file; a recorded process that ended seats nothing', async () => {
    const pane = await twoAgents();
    const pid = Number((await own.client.run(['display-message', '-p', '-t', pane, '#{pane_pid}'])).trim());
    const procStart = procStartOf(pid)!;
    writeTeam(Date.now(), { pid, procStart });
    expect(await lead()).toMatchObject({ state: 'alive', paneId: pane, paneProcess: { pid } });

    // Claude Code recorded a process that is gone: its hooks' pane is no longer its.
    const gone = spawn('true');
    await new Promise((resolve) => gone.on('close', resolve));
    writeTeam(Date.now(), { pid: gone.pid!, procStart });
    await fire(own, pane, 'UserPromptSubmit');
    expect(await lead()).toMatchObject({ state: 'in-process', paneId: null });
    const refused = await tower(s, ['send', RUN, 'hello from tower']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`team-lead of ${RUN} has no tmux pane to type into`);
    expect(await own.client.capturePane(pane)).not.toContain('hello from tower');
  }, 90_000);
});
