/**
 * Captures test/fixtures/gemini-cli-<version>/ from the real Gemini CLI (the pinned dev dependency),
 * run by the tests' harness against the scripted Gemini API stand-in, with tower's hook installed in
 * its settings (`tower hooks install --settings <home>/.gemini/settings.json`, the built CLI):
 *
 *   npm run build && node --import tsx scripts/capture-gemini-fixtures.ts
 *
 * Kept as drawn or written, but for the run's temp dir (`<tmp>/tower-gemini-XXXXXX`, random),
 * written `/tmp/tower-gemini-000000` (the same length, so a screen keeps its layout). Screens: idle,
 * busy, the shell dialog; the hook events of the run (tower's own events file); the session's jsonl.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GEMINI_CLI_VERSION, startGemini } from '../test/helpers/gemini-cli/launch.js';
import { shellTurn, slowTurn } from '../test/helpers/gemini-cli/scenarios.js';
import { waitFor } from '../test/helpers/wait-for.js';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(repo, 'test/fixtures', `gemini-cli-${GEMINI_CLI_VERSION}`);

const run = await startGemini({
  script: [slowTurn('SLOW', 15_000, 4321), shellTurn('MAKEFILE', 'echo hi > out-a.txt')],
  setup: ({ home, settingsPath }) => {
    execFileSync(process.execPath, [path.join(repo, 'bin/tower.js'), 'hooks', 'install', '--settings', settingsPath], {
      env: { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, '.local/state') },
    });
  },
});
const redact = (t: string) => t.replaceAll(run.dir, '/tmp/tower-gemini-000000');
const write = (name: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
  fs.writeFileSync(path.join(out, name), redact(text));
  console.log(`wrote ${name}`);
};
try {
  write('screens/idle.txt', await run.ready(120_000));
  await run.submit('take SLOW time');
  write('screens/busy.txt', await run.waitForScreen(/esc to cancel/, 60_000));
  await run.waitForScreen('Thinking it over', 60_000);
  await run.ready(60_000);
  await run.submit('please MAKEFILE');
  write('screens/permission.txt', await run.waitForScreen('Allow execution', 60_000));
  await run.keys('1');
  await waitFor(() => fs.existsSync(path.join(run.project, 'out-a.txt')), 30_000, { what: 'the command to run' });
  write('screens/after-allow.txt', await run.ready(60_000));
  const events = path.join(run.home, '.local/state/tower/hooks/events');
  write('hooks/events', fs.readFileSync(events, 'utf8'));
  const chats = path.join(run.geminiDir, 'tmp/project/chats');
  const [session] = fs.readdirSync(chats).filter((f) => f.endsWith('.jsonl'));
  write('sessions/session.jsonl', fs.readFileSync(path.join(chats, session!), 'utf8'));
  write('settings.json', fs.readFileSync(run.settingsPath, 'utf8'));
  write(
    'cmdline.txt',
    `${fs.readFileSync(`/proc/${run.pid}/cmdline`, 'utf8').split('\0').join(' ').replaceAll(repo, '<repo>').trimEnd()}\n`,
  );
} finally {
  await run.stop();
}
