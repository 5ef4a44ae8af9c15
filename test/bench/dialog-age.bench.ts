/**
 * How soon after the real Claude Code (2.1.332, the tests' harness) draws a permission dialog it
 * takes a key: for each delay after the dialog first shows in a capture, the answer is typed as
 * tower types it (`send-keys -l -- 1`, then `send-keys -H 0D`) and we look whether the dialog went.
 * Prints, per delay, how many answers were taken. tower waits MIN_DIALOG_AGE_MS (src/store/prompt-reading.ts).
 *
 *   node --import tsx test/bench/dialog-age.bench.ts          # 3 rounds
 *   ROUNDS=10 DELAYS=0,25,50,100,150 node --import tsx test/bench/dialog-age.bench.ts
 */
import { MIN_DIALOG_AGE_MS } from '../../src/store/prompt-reading.js';
import { startClaude } from '../helpers/claude-cli/launch.js';
import { afterToolResult, lastUserText } from '../helpers/claude-cli/messages-api.js';
import { cleanUpLeftovers } from '../helpers/leftovers.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const delays = (process.env.DELAYS ?? '0,25,50,75,100,150,200,300').split(',').map(Number);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DIALOG = /Do you want to proceed\?/;

const c = await startClaude({ columns: 120, rows: 40 });
const taken = new Map<number, number>(delays.map((d) => [d, 0]));
try {
  await c.ready();
  let n = 0;
  for (let round = 0; round < rounds; round++) {
    for (const delay of delays) {
      const step = `step ${++n}`;
      c.api.push(
        {
          // A step after a lost answer (Esc) comes with the refused tool's result in the same message.
          when: (r) => lastUserText(r).includes(`run ${step}.`),
          content: [{ type: 'tool_use', name: 'Bash', input: { command: `echo x > out-${n}.txt`, description: step } }],
        },
        {
          when: (r) => afterToolResult(r) && !lastUserText(r).includes('run step'),
          content: [{ type: 'text', text: `${step} done.` }],
        },
      );
      await c.ready();
      await c.submit(`run ${step}.`);
      let first = 0;
      for (let i = 0; i < 4000 && !first; i++) {
        if (DIALOG.test(await c.screen())) first = Date.now();
        else await sleep(2);
      }
      if (!first) throw new Error(`no dialog for ${step}`);
      await sleep(Math.max(0, first + delay - Date.now()));
      await c.tmux.run(['send-keys', '-t', c.paneId, '-l', '--', '1']);
      await c.tmux.run(['send-keys', '-t', c.paneId, '-H', '0D']);
      let gone = false;
      for (let i = 0; i < 30 && !gone; i++) {
        await sleep(50);
        gone = !DIALOG.test(await c.screen());
      }
      if (gone) taken.set(delay, (taken.get(delay) ?? 0) + 1);
      else {
        await c.keys('Escape');
        for (let i = 0; i < 40 && DIALOG.test(await c.screen()); i++) await sleep(50);
      }
      // Let the turn end before the next one.
      for (let i = 0; i < 100 && /esc to interrupt/.test(await c.screen()); i++) await sleep(50);
    }
  }
} finally {
  await c.stop();
  // The CLI's home and the world's folders are removed after a test file; a bench is no test file.
  await cleanUpLeftovers();
}
console.log(`keys typed N ms after a dialog first showed, taken of ${rounds} (tower waits ${MIN_DIALOG_AGE_MS} ms):`);
for (const d of delays) console.log(`  ${String(d).padStart(4)} ms: ${taken.get(d)}/${rounds}`);
