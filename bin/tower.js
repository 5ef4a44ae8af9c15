#!/usr/bin/env node
// Node 22+ can keep compiled code between runs; on Node 20 there is no such cache and nothing happens.
import module from 'node:module';

module.enableCompileCache?.();
import('../dist/cli.js').then((m) => m.main(process.argv.slice(2))).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(`tower: ${err && err.stack ? err.stack : err}`); process.exitCode = 1; },
);
