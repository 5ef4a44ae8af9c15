#!/usr/bin/env node
import('../dist/cli.js').then((m) => m.main(process.argv.slice(2))).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(`tower: ${err && err.stack ? err.stack : err}`); process.exitCode = 1; },
);
