/**
 * The guard before typing trusts each CLI's own state over its screen: a pane drawing the captured
 * screen of an opencode or a Gemini CLI at its input box is refused while opencode's server (a
 * stand-in on 127.0.0.1 serving the captured lists, found from the pane's own `--port` argv) holds a
 * permission request, or while the pane's newest hook event is Gemini CLI's captured
 * `ToolPermission` notification; and let through once the request is gone or a later captured event
 * ended it. A real tmux server; the screens, lists and events as the real CLIs gave them.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardTyping } from '../../src/actions/input-guard.js';
import { geminiCliWays } from '../../src/agents/gemini-cli/ways.js';
import { opencodeWays } from '../../src/agents/opencode/ways.js';
import { stateHome } from '../../src/config/config.js';
import { hookEventsFile } from '../../src/store/hook-events.js';
import { FIXTURES, readFixture } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { actionWorld } from './kit.js';

let tmux: TmuxFixture;
let server: http.Server | null = null;
beforeEach(async () => {
  tmux = await startTmux();
});
afterEach(async () => {
  await tmux.kill();
  const s = server;
  server = null;
  if (s) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** A pane of the captured screen's size drawing it (its last line without a newline), its argv ending in `args`. */
async function paneDrawing(home: string, screen: string, ...args: string[]): Promise<string> {
  const file = path.join(FIXTURES, screen);
  const lines = fs.readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
  const pane = await tmux.newSession(
    'agent',
    home,
    `sh -c 'stty -echo; printf %s "$(cat "$0")"; sleep 100000' ${[file, ...args].join(' ')}`,
  );
  await tmux.client.run(['resize-window', '-t', pane, '-x', '160', '-y', String(lines.length)]);
  const last = lines.at(-1)!.trim();
  await waitFor(async () => (await tmux.client.capturePane(pane)).includes(last), 10_000, { what: 'the screen drawn' });
  return pane;
}

/** The refusal's message, or `typed` when the guard let the line through. */
async function guarded(p: Promise<void>): Promise<string> {
  try {
    await p;
    return 'typed';
  } catch (err) {
    return (err as Error).message;
  }
}

describe("the guard before typing, on each CLI's own state", () => {
  it('refuses an opencode pane while its server holds a permission request, whatever the screen shows', async () => {
    const home = tempDir('tower-home-');
    const w = actionWorld(tmux.name, home);
    let pending: unknown[] = JSON.parse(readFixture('opencode-1.18.33/server/permission.json')) as unknown[];
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/permission' ? pending : []));
    });
    const s = server;
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as AddressInfo).port;
    const pane = await paneDrawing(home, 'opencode-1.18.33/screens/idle.txt', 'opencode', '--port', String(port));
    const t = { target: pane, server: null, who: 'coder' };
    expect(opencodeWays.screen.atInput(await tmux.client.capturePane(pane))).toBeNull();
    const id = (pending[0] as { id: string }).id;
    expect(await guarded(guardTyping(w.ctx, t, 'the line', opencodeWays))).toMatch(
      new RegExp(
        `^coder's pane ${pane} waits for permission: opencode's server on port ${port} holds a permission request from it \\(${id}, bash, session [^)]+\\); the line was not typed$`,
      ),
    );
    pending = [];
    expect(await guarded(guardTyping(w.ctx, t, 'the line', opencodeWays))).toBe('typed');
  });

  it('refuses a Gemini CLI pane while its newest hook event is the ToolPermission notification', async () => {
    const home = tempDir('tower-home-');
    const w = actionWorld(tmux.name, home);
    const pane = await paneDrawing(home, 'gemini-cli-0.61.0/screens/idle.txt');
    const socket = (await tmux.client.run(['display-message', '-p', '#{socket_path}'])).trim();
    const t = { target: pane, server: null, who: 'gem' };
    expect(geminiCliWays.screen.atInput(await tmux.client.capturePane(pane))).toBeNull();
    // The captured events, as this pane's, now: the turn that ended, then the one asking.
    const captured = readFixture('gemini-cli-0.61.0/hooks/events').trim().split('\n');
    const now = Math.floor(Date.now() / 1000);
    const asPane = (line: string) => [String(now), pane, socket, line.split('\t')[3]].join('\t') + '\n';
    const events = hookEventsFile(stateHome(w.ctx.env));
    fs.mkdirSync(path.dirname(events), { recursive: true });
    fs.writeFileSync(events, captured.map(asPane).join(''));
    expect(await guarded(guardTyping(w.ctx, t, 'the line', geminiCliWays))).toBe(
      `gem's pane ${pane} waits for permission: its Gemini CLI hook events say it waits for permission ` +
        '(a ToolPermission notification, nothing since); the line was not typed',
    );
    const ended = captured.find((l) => l.includes('"hook_event_name":"AfterAgent"'))!;
    fs.appendFileSync(events, asPane(ended));
    expect(await guarded(guardTyping(w.ctx, t, 'the line', geminiCliWays))).toBe('typed');
  });
});
