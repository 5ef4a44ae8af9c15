/**
 * The CLI's own state with no setup: with no hooks installed, tower reads the real CLI's
 * `~/.claude/sessions/<pid>.json` for its lead's state and pane (the session team's lead is written
 * `tmuxPaneId: "leader"`), and `tower send` with no --member types into that pane.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type BuiltCli } from '../helpers/built-cli.js';
import { startClaude, type ClaudeRun } from '../helpers/claude-cli/launch.js';
import { lastUserText } from '../helpers/claude-cli/messages-api.js';
import { startTeam, teamTurns } from '../helpers/claude-cli/scenarios.js';
import { waitFor } from '../helpers/wait-for.js';

const run = promisify(execFile);

interface StatusMember {
  name: string;
  paneId: string | null;
  state: string;
  lead: boolean;
  activity?: string;
  activitySource?: string | null;
}
interface StatusRun {
  id: string;
  system: string;
  members: StatusMember[];
}

let cli: BuiltCli;
let claude: ClaudeRun;

beforeAll(async () => {
  cli = await buildCli();
}, 120_000);
afterAll(async () => {
  await claude?.stop();
});

function towerEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: claude.home,
    XDG_STATE_HOME: path.join(claude.home, '.local/state'),
    XDG_CONFIG_HOME: path.join(claude.home, '.config'),
    TMUX_TMPDIR: claude.tmuxDir,
    TMUX: '',
  };
}

async function tower(...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [cli.bin, ...args, '-S', claude.socketPath, '--claude-dir', claude.claudeDir],
    { env: towerEnv(), timeout: 20_000 },
  );
  return stdout;
}

async function sessionTeam(): Promise<StatusRun | undefined> {
  const snap = JSON.parse(await tower('status', '--json')) as { runs: StatusRun[] };
  return snap.runs.find((r) => r.system === 'claude-team' && r.id.includes('session-'));
}

describe("the real CLI's session file, with no hooks installed", () => {
  it("gives the session team's lead its pane and state, and send types into it", async () => {
    claude = await startClaude({
      script: [
        ...teamTurns(),
        {
          when: (r) => lastUserText(r).includes('note from tower'),
          content: [{ type: 'text', text: 'Thinking it over.' }],
          delayMs: 1500,
        },
      ],
    });
    await claude.ready();
    expect(fs.existsSync(path.join(claude.home, '.local/state/tower'))).toBe(false);
    await startTeam(claude);

    // The lead waits at its teammate's request: its session file says so.
    const waiting = await waitFor(async () => {
      const r = await sessionTeam();
      const lead = r?.members.find((m) => m.lead);
      return lead?.activity === 'waiting' && r;
    }, 20_000);
    const lead = waiting.members.find((m) => m.lead)!;
    expect(lead).toMatchObject({
      name: 'team-lead',
      paneId: claude.paneId,
      state: 'alive',
      activitySource: 'session',
    });

    // Deny the request; the lead is back at its input box.
    await claude.keys('Escape');
    await claude.ready();
    // No --member: the lead's pane.
    const said = await tower('send', waiting.id, 'note from tower');
    // Confirmed the way the CLI shows it, never reported failed while the CLI took the line.
    expect(said).toMatch(
      /^sent a line to team-lead \(%\d+\): (its session says a turn began|its transcript has the line|it left the input box)\n/,
    );
    await waitFor(() => claude.api.requests.some((r) => lastUserText(r).includes('note from tower')), 15_000);
    const working = await waitFor(async () => {
      const l = (await sessionTeam())?.members.find((m) => m.lead);
      return l?.activity === 'working' && l;
    }, 10_000);
    expect(working.activitySource).toBe('session');
  }, 90_000);
});
