/**
 * Captures test/fixtures/codex-<version>/ from the real Codex CLI (the pinned dev dependency), run by
 * the tests' harness against the scripted Responses API:
 *
 *   node --import tsx scripts/capture-codex-fixtures.ts
 *
 * What is kept is what the CLI drew or wrote, byte for byte, but for one thing: the run's temp dir
 * (`<tmp>/tower-codex-XXXXXX`, random) is written `/tmp/cx-fixture/tower-codex-000000` everywhere, a
 * path of the same length, so a screen keeps its layout. Thread ids and times are the run's own. In
 * the rollout, the CLI's own long texts (its instructions, the skills and permissions it lists, over
 * 300 characters each) are replaced by a note of their length: they are not tower's to keep, and
 * nothing reads them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadList } from '../test/helpers/codex-cli/app-server.js';
import { CODEX_VERSION, startCodex, type CodexRun } from '../test/helpers/codex-cli/launch.js';
import {
  DIALOG_QUESTION,
  afterRunTurn,
  askForDialog,
  escalationTurn,
  say,
  slowTurn,
} from '../test/helpers/codex-cli/scenarios.js';
import { waitFor } from '../test/helpers/wait-for.js';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(repo, 'test/fixtures', `codex-${CODEX_VERSION}`);
const STABLE = '/tmp/cx-fixture/tower-codex-000000';

let runDir = '';
const redact = (text: string) => (runDir ? text.replaceAll(runDir, STABLE) : text);

function keep(rel: string, text: string): void {
  const file = path.join(out, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, redact(text));
  console.log(`  ${rel}`);
}

/** A rollout with every string over 300 characters replaced by a note of its length, line for line. */
function withoutLongTexts(jsonl: string): string {
  const cut = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.length > 300
        ? `(${v.length} characters of the CLI's own text, left out)`
        : v
      : Array.isArray(v)
        ? v.map(cut)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]))
          : v;
  return jsonl
    .split('\n')
    .map((l) => (l.trim() ? JSON.stringify(cut(JSON.parse(l))) : l))
    .join('\n');
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** The one rollout file of the run's home. */
function rolloutOf(c: CodexRun): string {
  const found = fs.readdirSync(path.join(c.codexHome, 'sessions'), { recursive: true, encoding: 'utf8' });
  const rel = found.find((f) => /rollout-.*\.jsonl$/.test(f));
  if (!rel) throw new Error('no rollout file');
  return path.join(c.codexHome, 'sessions', rel);
}

/** Idle, working, the dialog (approved with `1`, then one denied with `n`), the rollout, thread/list, notify. */
async function solo(): Promise<void> {
  console.log('solo, 100 columns');
  const c = await startCodex({
    columns: 100,
    rows: 40,
    config: 'notify = ["/bin/sh", "-c", "printf \'%s\\\\n\' \\"$1\\" >> \\"$0\\"", "notify.jsonl"]',
    script: [
      slowTurn('write a poem', 'Roses are red, the build is green, the tests all pass, the diff is clean.', 300),
      escalationTurn('make the file', 'touch approved.txt', 'Create approved.txt outside the sandbox?', {
        input_tokens: 12_000,
        cached_tokens: 8_000,
        output_tokens: 40,
      }),
      afterRunTurn('make the file', 'Created approved.txt.', {
        input_tokens: 12_400,
        cached_tokens: 12_000,
        output_tokens: 9,
      }),
      escalationTurn('remove it', 'rm approved.txt', 'Remove approved.txt outside the sandbox?'),
    ],
  });
  runDir = c.dir;
  try {
    keep('screens/idle-start.100x40.txt', await c.ready());
    await say(c, 'write a poem');
    keep('screens/working.100x40.txt', await c.waitForScreen(/Working \(\d+s • esc to interrupt\)/));
    await c.waitForScreen('the diff is clean');
    keep('screens/after-turn.100x40.txt', await c.waitForScreen(/Worked for/));
    keep('screens/dialog.100x40.txt', await askForDialog(c, 'make the file'));
    keep('screens/dialog.100x40.ansi', await c.tmux.run(['capture-pane', '-p', '-e', '-t', c.paneId]));
    keep('app-server/thread-list-asking.json', json(await threadList(c.codexHome)));
    await new Promise((r) => setTimeout(r, 600));
    await c.keys('1');
    keep('screens/approved.100x40.txt', await c.waitForScreen('Created approved.txt.'));
    keep('app-server/thread-list-idle.json', json(await threadList(c.codexHome)));
    await askForDialog(c, 'remove it');
    await new Promise((r) => setTimeout(r, 600));
    await c.keys('n');
    keep('screens/denied.100x40.txt', await c.waitForScreen('Conversation interrupted'));
    const notify = path.join(c.project, 'notify.jsonl');
    await waitFor(() => fs.existsSync(notify), 10_000);
    keep('notify/notify.jsonl', fs.readFileSync(notify, 'utf8'));
    keep('rollout/solo.jsonl', withoutLongTexts(fs.readFileSync(rolloutOf(c), 'utf8')));
    keep('history.jsonl', fs.readFileSync(path.join(c.codexHome, 'history.jsonl'), 'utf8'));
  } finally {
    await c.stop();
  }
}

/** The same dialog at 70 columns: its second option wraps. */
async function narrow(): Promise<void> {
  console.log('solo, 70 columns');
  const c = await startCodex({
    columns: 70,
    rows: 40,
    script: [
      escalationTurn(
        'make the file',
        'touch approved-with-a-rather-long-name.txt',
        'Create the file outside the sandbox?',
      ),
    ],
  });
  runDir = c.dir;
  try {
    await c.ready();
    keep('screens/dialog.70x40.txt', await askForDialog(c, 'make the file'));
  } finally {
    await c.stop();
  }
}

fs.rmSync(out, { recursive: true, force: true });
await solo();
await narrow();
console.log(`kept in ${path.relative(repo, out)}; the dialog reads "${DIALOG_QUESTION}"`);
process.exit(0);
