/**
 * Captures test/fixtures/claude-code-<version>/ from the real Claude Code CLI (the pinned dev
 * dependency), run by the tests' harness against the scripted Messages API:
 *
 *   npm run build && node --import tsx scripts/capture-claude-fixtures.ts
 *
 * What is kept is what the CLI drew or wrote, byte for byte, but for one thing: the run's temp dir
 * (`<tmp>/tower-claude-XXXXXX`, random) is written `/tmp/cc-fixture/tower-claude-000000` everywhere
 * (also in its project-folder spelling `-tmp-cc-fixture-tower-claude-000000`), a path of the same
 * length, so a screen keeps its layout. The pids, session ids and times are the
 * run's own.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLAUDE_CODE_VERSION } from '../test/helpers/claude-cli/binary.js';
import { pidAlive } from '../src/kit/process-tree.js';
import { startClaude, type ClaudeRun } from '../test/helpers/claude-cli/launch.js';
import { afterToolResult, type Turn } from '../test/helpers/claude-cli/messages-api.js';
import {
  DIALOG_QUESTION,
  TALL_COMMAND,
  askForDialog,
  bashRequest,
  bashTurn,
  startTeam,
  teamFolder,
  teamTurns,
  workerWaiting,
} from '../test/helpers/claude-cli/scenarios.js';
import { waitFor } from '../test/helpers/wait-for.js';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(repo, 'test/fixtures', `claude-code-${CLAUDE_CODE_VERSION}`);
const TMP = '/tmp/cc-fixture';
const STABLE = `${TMP}/tower-claude-000000`;

let runDir = '';
/** The run dir, also as Claude Code names a project folder after it (`/` and `.` as `-`). */
const projectKey = (p: string) => p.replace(/[/.\\:]/g, '-');
const redact = (text: string) =>
  runDir ? text.replaceAll(runDir, STABLE).replaceAll(projectKey(runDir), projectKey(STABLE)) : text;

function keep(rel: string, text: string): void {
  const file = path.join(out, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, redact(text));
  console.log(`  ${rel}`);
}

function keepFile(rel: string, from: string): void {
  keep(rel, fs.readFileSync(from, 'utf8'));
}

const stepOne = bashTurn('run step 1', 'out-a.txt', {
  say: 'Step 1: Bash.',
  echo: 'a',
  usage: {
    input_tokens: 3000,
    cache_creation_input_tokens: 20_000,
    cache_read_input_tokens: 100_000,
    output_tokens: 40,
  },
});
const afterStepOne: Turn = {
  when: afterToolResult,
  content: [{ type: 'text', text: 'Step 1 done.' }],
  usage: { input_tokens: 500, cache_creation_input_tokens: 1000, cache_read_input_tokens: 123_000, output_tokens: 12 },
};

function hooksInstall(claudeDir: string): void {
  execFileSync(
    process.execPath,
    [path.join(repo, 'bin/tower.js'), 'hooks', 'install', '--settings', `${claudeDir}/settings.json`],
    {
      stdio: 'ignore',
    },
  );
}

function sessionFile(c: ClaudeRun): string {
  return path.join(c.claudeDir, 'sessions', `${c.pid}.json`);
}

async function sessionStatus(c: ClaudeRun, status: string): Promise<string> {
  return waitFor(
    () => {
      const text = fs.readFileSync(sessionFile(c), 'utf8');
      return (JSON.parse(text) as { status?: string }).status === status && text;
    },
    15_000,
    { intervalMs: 20, what: `session status ${status}` },
  );
}

/** One agent at 200 columns: its session file idle, busy, at a prompt; the dialog; hooks; status line; transcript. */
async function solo(): Promise<void> {
  console.log('solo, 200 columns');
  const c = await startClaude({
    columns: 200,
    script: [{ ...stepOne, delayMs: 400 }, afterStepOne],
    settings: { statusLine: { type: 'command', command: 'cat > "$HOME/statusline-input.json"; echo ok' } },
    setup: ({ claudeDir }) => hooksInstall(claudeDir),
  });
  runDir = c.dir;
  try {
    await c.ready();
    keep('sessions/started.json', await sessionStatus(c, 'idle').catch(() => fs.readFileSync(sessionFile(c), 'utf8')));
    await c.submit('run step 1');
    keep('sessions/busy.json', await sessionStatus(c, 'busy').catch(() => fs.readFileSync(sessionFile(c), 'utf8')));
    keep('screens/bash-prompt.200x50.txt', await c.waitForScreen(DIALOG_QUESTION));
    keep('sessions/waiting-permission.json', await sessionStatus(c, 'waiting'));
    await c.keys('1');
    await c.waitForScreen('Step 1 done.');
    keep('sessions/idle-after-turn.json', await sessionStatus(c, 'idle'));
    keep('screens/idle.200x50.txt', await c.ready());
    await waitFor(() => fs.existsSync(path.join(c.home, 'statusline-input.json')), 10_000);
    keepFile('statusline/input.json', path.join(c.home, 'statusline-input.json'));
    keepFile('hooks/events', path.join(c.home, '.local/state/tower/hooks/events'));
    const projects = path.join(c.claudeDir, 'projects');
    const [proj] = fs.readdirSync(projects);
    const transcript = fs.readdirSync(path.join(projects, proj!)).find((f) => f.endsWith('.jsonl'))!;
    keepFile('transcripts/solo.jsonl', path.join(projects, proj!, transcript));
  } finally {
    await c.stop();
  }
}

/** The same dialog at 70 columns: its labels wrap. */
async function narrow(): Promise<void> {
  console.log('solo, 70 columns');
  const c = await startClaude({ columns: 70, rows: 40, script: [stepOne] });
  runDir = c.dir;
  try {
    keep('screens/bash-prompt.70x40.txt', await askForDialog(c, 'run step 1'));
  } finally {
    await c.stop();
  }
}

/** A Bash command taller than the pane (40 rows): the dialog's `↑ N more lines` row, its top out of sight. */
async function tall(): Promise<void> {
  console.log('solo, a command taller than the pane');
  const c = await startClaude({
    columns: 120,
    rows: 40,
    script: [bashRequest('run tall', TALL_COMMAND, 'Run a tall script')],
  });
  runDir = c.dir;
  try {
    await c.ready();
    await c.submit('run tall');
    keep('screens/tall-dialog.120x40.txt', await c.waitForScreen(/↑ \d+ more lines[\s\S]*Esc to cancel/));
  } finally {
    await c.stop();
  }
}

/** A lead with a teammate whose Bash request is drawn in the lead's pane; the team folder; its rename at exit. */
async function team(): Promise<void> {
  console.log('a session team');
  const c = await startClaude({
    columns: 200,
    script: teamTurns(),
    setup: ({ claudeDir }) => hooksInstall(claudeDir),
  });
  runDir = c.dir;
  try {
    keep('screens/forwarded-prompt.200x50.txt', await startTeam(c));
    keep('sessions/lead-waiting-teammate.json', await sessionStatus(c, 'waiting'));
    const teams = path.join(c.claudeDir, 'teams');
    keepFile('teams/session-team/config.json', path.join(teamFolder(c), 'config.json'));
    keepFile('hooks/events.team', path.join(c.home, '.local/state/tower/hooks/events'));
    const projects = path.join(c.claudeDir, 'projects');
    const [proj] = fs.readdirSync(projects);
    const sub = fs.readdirSync(path.join(projects, proj!), { recursive: true, encoding: 'utf8' });
    const meta = sub.find((f) => f.endsWith('.meta.json'));
    if (meta) keepFile('transcripts/teammate.meta.json', path.join(projects, proj!, meta));
    const teammate = sub.find((f) => f.includes('subagents') && f.endsWith('.jsonl'));
    if (teammate) keepFile('transcripts/teammate.jsonl', path.join(projects, proj!, teammate));
    // Deny the teammate's request, then leave the CLI: it renames its team folder as it ends.
    await c.keys('Escape');
    await c.ready();
    // Ctrl-D twice leaves; with the teammate still there the CLI asks first.
    for (let i = 0; i < 6 && pidAlive(c.pid); i++) {
      const screen = await c.screen();
      await c.keys(screen.includes('Exit and stop tasks') ? 'Enter' : 'C-d');
      await waitFor(async () => (await c.screen()) !== screen || !pidAlive(c.pid), 3000).catch(() => {});
    }
    await waitFor(() => !pidAlive(c.pid), 20_000, { intervalMs: 50, what: 'the CLI to exit' }).catch(async (err) => {
      throw new Error(`${(err as Error).message}\n${await c.screen()}`);
    });
    keep('teams/after-exit.listing.txt', `${fs.readdirSync(teams).join('\n')}\n`);
    const renamed = fs.readdirSync(teams).find((n) => n.includes('.deleted-'));
    if (renamed && fs.existsSync(path.join(teams, renamed, 'config.json')))
      keepFile('teams/deleted/config.json', path.join(teams, renamed, 'config.json'));
    keep('sessions/after-exit.listing.txt', `${fs.readdirSync(path.join(c.claudeDir, 'sessions')).join('\n')}\n`);
  } finally {
    await c.stop();
  }
}

/**
 * A teammate in a tmux pane of its own (`--teammate-mode tmux`): its Bash request is drawn in the
 * lead's pane with three options, while its own pane says it waits for the lead's approval.
 */
async function paneTeam(): Promise<void> {
  console.log('a teammate in a pane of its own');
  const c = await startClaude({
    columns: 120,
    rows: 40,
    args: ['--teammate-mode', 'tmux'],
    script: teamTurns(),
  });
  runDir = c.dir;
  try {
    const lead = await startTeam(c);
    keep('screens/teammate-waiting.pane.txt', (await workerWaiting(c)).screen);
    keep('screens/forwarded-prompt.pane-teammate.txt', lead);
  } finally {
    await c.stop();
  }
}

const SCENARIOS: Record<string, () => Promise<void>> = { solo, narrow, tall, team, paneTeam };
/** The scenarios named on the command line (`… capture-claude-fixtures.ts paneTeam`), else all. */
const chosen = process.argv.slice(2);
fs.rmSync(TMP, { recursive: true, force: true });
fs.mkdirSync(TMP, { recursive: true });
process.env.TMPDIR = TMP;
try {
  for (const [name, scenario] of Object.entries(SCENARIOS))
    if (chosen.length === 0 || chosen.includes(name)) await scenario();
} finally {
  fs.rmSync(TMP, { recursive: true, force: true });
}
