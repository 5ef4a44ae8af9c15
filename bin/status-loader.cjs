'use strict';
// Runs dist/status.cjs (src/cli/status-main.ts) with the code V8 compiled for it at build time,
// dist/status.cjs.cache: Node 20 keeps no compiled code between runs, and this is most of what a
// `tower status` start would otherwise spend. A cache V8 refuses (another Node, other flags) or a
// missing one only means the file is compiled as usual.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** Loads the status file; null when there is none (a bundle built without it). */
function loadStatusFile(given) {
  const file = path.resolve(given);
  let source;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  // V8 checks kept code against the source's length only: code older than the file (a file rebuilt
  // without it) is never offered.
  let cachedData;
  try {
    const cache = `${file}.cache`;
    if (fs.statSync(cache).mtimeMs >= fs.statSync(file).mtimeMs) cachedData = fs.readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return { statusMain: mod.exports.statusMain, script };
}

/** `tower status` for this box from the status file: its exit code, or null when the full command line must answer. */
async function runStatus(file, argv) {
  const loaded = loadStatusFile(file);
  return loaded ? loaded.statusMain(argv) : null;
}

module.exports = { loadStatusFile, runStatus };
