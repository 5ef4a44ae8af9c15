/**
 * One real opencode run for a fixture capture (scripts/capture-opencode-*.ts): the pinned CLI started
 * with `--port N` against the scripted stand-in model, its `GET /event` stream followed from the
 * start, and what is written into test/fixtures/opencode-<version>/ with the run's temp dir
 * (`<tmp>/tower-opencode-XXXXXX`, random) written `/tmp/tower-opencode-000000` (the same length, so a
 * screen keeps its layout).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatTurn } from '../test/helpers/opencode-cli/chat-api.js';
import { OPENCODE_VERSION, startOpencode } from '../test/helpers/opencode-cli/launch.js';
import { waitFor } from '../test/helpers/wait-for.js';

export const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(repo, 'test/fixtures', `opencode-${OPENCODE_VERSION}`);

export type OpencodeCapture = Awaited<ReturnType<typeof opencodeCapture>>;

/** Starts the run with the model's turns, waits for it to be ready and its event stream to flow. */
export async function opencodeCapture(script: ChatTurn[]) {
  const run = await startOpencode({ port: true, script });
  const server = `http://127.0.0.1:${run.port}`;
  const events: string[] = [];
  const stream = new AbortController();
  const stop = async (): Promise<void> => {
    stream.abort();
    await run.stop();
  };
  try {
    await run.ready(180_000);
    void (async () => {
      const res = await fetch(`${server}/event`, { signal: stream.signal });
      const dec = new TextDecoder();
      for await (const c of res.body as AsyncIterable<Uint8Array>) events.push(dec.decode(c, { stream: true }));
    })().catch(() => {});
    await waitFor(() => events.length > 0, 30_000, { what: 'the event stream' });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    run,
    server,
    events,
    stop,
    /** Writes one fixture file, the run's temp dir redacted. */
    write(name: string, text: string): void {
      fs.mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
      fs.writeFileSync(path.join(out, name), text.replaceAll(run.dir, '/tmp/tower-opencode-000000'));
      console.log(`wrote ${name}`);
    },
    /** The pane with its escapes. */
    escaped: (): Promise<string> => run.tmux.run(['capture-pane', '-p', '-e', '-t', run.paneId]),
    /** A GET of the server's, as text. */
    get: async (route: string): Promise<string> => (await fetch(`${server}${route}`)).text(),
    /**
     * Ends the event stream and gives the events of these types, in order, as an SSE file (the stream
     * also carries every plugin and part).
     */
    eventsOf(types: readonly string[]): string {
      stream.abort();
      const kept = events
        .join('')
        .split('\n')
        .filter((l) => types.some((t) => l.includes(`"type":"${t}"`)));
      return `${kept.join('\n\n')}\n\n`;
    },
  };
}
