/**
 * Starts a live store on the given dirs (a tmux socket nobody uses), stops it, and then just
 * returns: the process exits on its own only if stop() left no timer, watcher or child behind.
 * Usage: node --import tsx live-store-exit.ts <claudeDir> [root...]
 */
import { createLiveStore } from '../../src/store/live-store.js';
import { testContext } from './context.js';
import { uniqueSocketName } from './tmux.js';

const [claudeDir = '', ...roots] = process.argv.slice(2);
const ctx = testContext({ claudeDir, roots, socketName: uniqueSocketName(), config: { pollIntervalMs: 100 } });
const store = createLiveStore(ctx);
await store.start();
process.stdout.write(`runs ${store.getSnapshot().runs.length}\n`);
// Let a few polls and a frame happen, so stop() has something to stop.
await new Promise((r) => setTimeout(r, 300));
await store.stop();
process.stdout.write('stopped\n');
