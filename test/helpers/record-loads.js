// Records the URL of every ES module node loads, one per line, into $TOWER_RECORD_LOADS.
// Used as `node --import ./record-loads.js …`: the file registers itself as a module hook.
import fs from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

// Hooks run on their own thread, which loads this file again: register only from the main thread.
if (isMainThread) register(import.meta.url, import.meta.url);

/** The load hook: note the URL, then load as usual. */
export async function load(url, context, nextLoad) {
  const out = process.env.TOWER_RECORD_LOADS;
  if (out) fs.appendFileSync(out, `${url}\n`);
  return nextLoad(url, context);
}
