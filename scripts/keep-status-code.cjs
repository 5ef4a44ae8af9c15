'use strict';
// Build step: runs the status file once (argv after the file's path) through the loader tower uses,
// then writes the code V8 compiled, functions the read ran included, to <file>.cache. Output and
// exit code of that run do not matter; the flags it changed are put back first, as V8 refuses code
// kept under other flags.
const fs = require('node:fs');
const v8 = require('node:v8');
const { loadStatusFile } = require('../bin/status-loader.cjs');

const [file, ...argv] = process.argv.slice(2);
fs.rmSync(`${file}.cache`, { force: true });
const loaded = loadStatusFile(file);
if (!loaded) process.exit(1);
const keep = () => {
  v8.setFlagsFromString('--incremental-marking');
  fs.writeFileSync(`${file}.cache`, loaded.script.createCachedData());
};
loaded.statusMain(argv).then(keep, keep);
