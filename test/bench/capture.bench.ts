/**
 * What pane captures cost: one capture round (one tmux call) of 1, 8 and 32 panes on a private
 * server, and the activity reading of what came back. Prints figures; asserts nothing on time.
 */
import { performance } from 'node:perf_hooks';
import { PaneWatch } from '../../src/store/captures.js';
import { capturePanes } from '../../src/tmux/capture.js';
import { startTmux } from '../helpers/tmux.js';

const ROUNDS = 20;

async function main(): Promise<void> {
  const tmux = await startTmux();
  try {
    const panes: string[] = [];
    // Panes that print 200 lines of coloured output, then sit: a realistic screen and scrollback.
    const script = `for i in $(seq 1 200); do printf '\\033[32m%04d\\033[0m building module %s\\n' $i $i; done; sleep 100000`;
    for (let i = 0; i < 32; i++) panes.push(await tmux.newSession(`agent-${i}`, '/tmp', script));
    await new Promise((r) => setTimeout(r, 1500));
    for (const n of [1, 8, 32]) {
      const ids = panes.slice(0, n);
      const times: number[] = [];
      let bytes = 0;
      for (let k = 0; k < ROUNDS; k++) {
        const t0 = performance.now();
        const caps = await capturePanes(tmux.client, ids, { history: 200 });
        times.push(performance.now() - t0);
        bytes = [...caps.values()].reduce((s, c) => s + (c.ok ? c.text.length : 0), 0);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? 0;
      console.log(
        `capture round of ${String(n).padStart(2)} panes: median ${median.toFixed(1)} ms, one tmux call, ${(bytes / 1024).toFixed(0)} KiB captured`,
      );
    }
    const watch = new PaneWatch(tmux.client);
    const t0 = performance.now();
    await watch.round(panes, null);
    console.log(`PaneWatch round of 32 panes (capture + sanitize + read): ${(performance.now() - t0).toFixed(1)} ms`);
  } finally {
    await tmux.kill();
  }
}

await main();
