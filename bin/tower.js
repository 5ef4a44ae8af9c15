#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json): a CommonJS entry starts ~6 ms sooner than an ES module one, and
// `tower status` loads no ES module at all. Node 22+ keeps compiled code between runs; on Node 20
// `tower status` runs from one file with the code the build compiled for it
// (bin/status-loader.cjs), and everything else from the chunks.
const nodeModule = require('node:module');
const path = require('node:path');

const argv = process.argv.slice(2);
const done = (code) => {
  process.exitCode = code;
};
// A crash message can quote a file or a box: its control characters (escape sequences) are dropped.
const fail = (err) => {
  console.error(
    // eslint-disable-next-line no-control-regex -- the control characters are what is removed
    `tower: ${String(err && err.stack ? err.stack : err).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')}`,
  );
  process.exitCode = 1;
};
const full = () => import('../dist/cli.js').then((m) => m.main(argv));

if (nodeModule.enableCompileCache) {
  nodeModule.enableCompileCache();
  full().then(done, fail);
} else if (argv.includes('status')) {
  require('./status-loader.cjs')
    .runStatus(path.join(__dirname, '..', 'dist', 'status.cjs'), argv)
    .then((code) => code ?? full())
    .then(done, fail);
} else {
  full().then(done, fail);
}
