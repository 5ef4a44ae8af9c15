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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENCODE_VERSION, startOpencode } from '../test/helpers/opencode-cli/launch.js';
import { bashTurn, slowTurn } from '../test/helpers/opencode-cli/scenarios.js';
import { waitFor } from '../test/helpers/wait-for.js';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(repo, 'test/fixtures', `opencode-${OPENCODE_VERSION}`);
/** What the busy screen's turn and the dialog's command are. */
export const SLOW = 'take SLOW time';
export const ASK = 'please MAKEFILE';
export const COMMAND = 'echo hi > out-a.txt';

const run = await startOpencode({
  port: true,
  script: [slowTurn('SLOW', 20_000, 4321), bashTurn('MAKEFILE', COMMAND)],
});
const redact = (t: string) => t.replaceAll(run.dir, '/tmp/tower-opencode-000000');
const write = (name: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
  fs.writeFileSync(path.join(out, name), redact(text));
  console.log(`wrote ${name}`);
};
const escaped = async () => run.tmux.run(['capture-pane', '-p', '-e', '-t', run.paneId]);
const server = `http://127.0.0.1:${run.port}`;
const events: string[] = [];
const stream = new AbortController();
try {
  await run.ready(180_000);
  void (async () => {
    const res = await fetch(`${server}/event`, { signal: stream.signal });
    const dec = new TextDecoder();
    for await (const c of res.body as AsyncIterable<Uint8Array>) events.push(dec.decode(c, { stream: true }));
  })().catch(() => {});
  await waitFor(() => events.length > 0, 30_000, { what: 'the event stream' });
  write('screens/idle.txt', await run.screen());
  await run.submit(SLOW);
  await run.waitForScreen('Thinking it over', 90_000);
  write('screens/busy.txt', await run.screen());
  write('screens/busy.ansi', await escaped());
  await run.waitForScreen(/Thinking it over[\s\S]*▣ {2}Build · Stand-in model · [\d.]+s/, 90_000);
  await run.submit(ASK);
  write('screens/permission.txt', await run.waitForScreen('Permission required', 90_000));
  write('screens/permission.ansi', await escaped());
  write('server/permission.json', `${await (await fetch(`${server}/permission`)).text()}\n`);
  write('server/session-status.json', `${await (await fetch(`${server}/session/status`)).text()}\n`);
  await run.keys('Right');
  await waitFor(async () => (await escaped()).includes('\u001b[48;5;215m \u001b[38;5;232mAllow always'), 10_000);
  write('screens/permission-right.ansi', await escaped());
  await run.keys('Left');
  const [pending] = JSON.parse(await (await fetch(`${server}/permission`)).text()) as Array<{ id: string }>;
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
  write(
    'server/messages.json',
    `${await (
      await fetch(`${server}/session/${JSON.parse(await (await fetch(`${server}/session`)).text())[0].id}/message`)
    ).text()}\n`,
  );
  stream.abort();
  // Only the events tower reads, in order, one per line (the stream also carries every plugin and part).
  const kept = events
    .join('')
    .split('\n')
    .filter((l) =>
      /"type":"(session\.status|session\.idle|permission\.asked|permission\.replied|message\.updated)"/.test(l),
    );
  write('server/events.sse', `${kept.join('\n\n')}\n\n`);
  write(
    'cmdline.txt',
    `${fs.readFileSync(`/proc/${run.pid}/cmdline`, 'utf8').split('\0').join(' ').replace(String(run.port), '4096').replaceAll(repo, '<repo>').trimEnd()}\n`,
  );
} finally {
  stream.abort();
  await run.stop();
}
