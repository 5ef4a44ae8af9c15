/**
 * Captures test/fixtures/opencode-<version>/ from the real opencode CLI (the pinned dev dependency),
 * run by the tests' harness against the scripted chat completions stand-in, started with `--port N`:
 *
 *   node --import tsx scripts/capture-opencode-fixtures.ts
 *
 * Kept as drawn or sent, but for the run's temp dir (`<tmp>/tower-opencode-XXXXXX`, random), written
 * `/tmp/tower-opencode-000000` (the same length, so a screen keeps its layout), and the server's port,
 * written 4096 in the command line only. Screens: idle, busy (a turn in progress), the permission
 * dialog as plain text and with its escapes (the selected option is told by its colours only), and
 * after Right. Server: `GET /permission`, `GET /session/status` while the dialog waits, and the
 * `GET /event` stream of the whole run.
 */
import fs from 'node:fs';
import { bashTurn, slowTurn } from '../test/helpers/opencode-cli/scenarios.js';
import { waitFor } from '../test/helpers/wait-for.js';
import { opencodeCapture, repo } from './opencode-capture.js';

/** What the busy screen's turn and the dialog's command are. */
export const SLOW = 'take SLOW time';
export const ASK = 'please MAKEFILE';
export const COMMAND = 'echo hi > out-a.txt';

const cap = await opencodeCapture([slowTurn('SLOW', 20_000, 4321), bashTurn('MAKEFILE', COMMAND)]);
const { run, server, events, write, escaped, get } = cap;
try {
  write('screens/idle.txt', await run.screen());
  await run.submit(SLOW);
  await run.waitForScreen('Thinking it over', 90_000);
  write('screens/busy.txt', await run.screen());
  write('screens/busy.ansi', await escaped());
  await run.waitForScreen(/Thinking it over[\s\S]*▣ {2}Build · Stand-in model · [\d.]+s/, 90_000);
  await run.submit(ASK);
  write('screens/permission.txt', await run.waitForScreen('Permission required', 90_000));
  write('screens/permission.ansi', await escaped());
  write('server/permission.json', `${await get('/permission')}\n`);
  write('server/session-status.json', `${await get('/session/status')}\n`);
  await run.keys('Right');
  await waitFor(async () => (await escaped()).includes('\u001b[48;5;215m \u001b[38;5;232mAllow always'), 10_000);
  write('screens/permission-right.ansi', await escaped());
  await run.keys('Left');
  const [pending] = JSON.parse(await get('/permission')) as Array<{ id: string }>;
  await fetch(`${server}/permission/${pending!.id}/reply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reply: 'once' }),
  });
  await waitFor(
    () => events.join('').includes('"session.idle"') && events.join('').split('session.idle').length > 2,
    90_000,
    {
      what: 'the second turn to end',
    },
  );
  write('screens/after-allow.txt', await run.screen());
  write('server/messages.json', `${await get(`/session/${JSON.parse(await get('/session'))[0].id}/message`)}\n`);
  // Only the events tower reads, in order.
  write(
    'server/events.sse',
    cap.eventsOf(['session.status', 'session.idle', 'permission.asked', 'permission.replied', 'message.updated']),
  );
  write(
    'cmdline.txt',
    `${fs.readFileSync(`/proc/${run.pid}/cmdline`, 'utf8').split('\0').join(' ').replace(String(run.port), '4096').replaceAll(repo, '<repo>').trimEnd()}\n`,
  );
} finally {
  await cap.stop();
}
