'use strict';
// Build step: runs the status file once (argv after the file's path) through the loader tower uses,
// then writes the code V8 compiled, functions the read ran included, to <file>.cache. Output and
// exit code of that run do not matter.
const fs = require('node:fs');
const { loadStatusFile } = require('../bin/status-loader.cjs');

const [file, ...argv] = process.argv.slice(2);
fs.rmSync(`${file}.cache`, { force: true });
const loaded = loadStatusFile(file);
if (!loaded) process.exit(1);
const keep = () => fs.writeFileSync(`${file}.cache`, loaded.script.createCachedData());
loaded.statusMain(argv).then(keep, keep);
