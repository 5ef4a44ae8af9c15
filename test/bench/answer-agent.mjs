#!/usr/bin/env node
// A stand-in agent for the answer benchmark. It asks permission the way Claude Code draws it (a box
// with the command, the question, numbered choices), one round at a time, each round's command its
// own; it reads its terminal raw and stamps, in a JSON line per event, when it reads each key and,
// in a round held through tower's hook, when the hook lets the request through. The next round
// starts when the benchmark writes its number into the `ask` file.
//   node answer-agent.mjs STAMPS ASK   (env TOWER_HOOK_FILE: a file holding the hook line, read at each
//   round, to hold even rounds through it)
/* global process, console, performance, setInterval */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const [stamps, askFile] = process.argv.slice(2);
const hookFile = process.env.TOWER_HOOK_FILE ?? '';
const hookLine = () => (hookFile ? fs.readFileSync(hookFile, 'utf8').trim() : '');
const now = () => performance.timeOrigin + performance.now();
const stamp = (o) => fs.appendFileSync(stamps, `${JSON.stringify({ ...o, at: now() })}\n`);
const W = 60;
const box = (t) => `│ ${t.padEnd(W - 4)} │`;
let round = 0;
let asking = false;
let held = null;

function ask(n) {
  round = n;
  asking = true;
  const command = `npm run deploy -- --round ${n}`;
  process.stdout.write('\x1b[2J\x1b[H');
  for (const l of [
    `╭${'─'.repeat(W - 2)}╮`,
    box('Bash command'),
    box(`  ${command}`),
    box(''),
    box('Do you want to proceed?'),
    box('❯ 1. Yes'),
    box('  2. No, and tell Claude what to do differently'),
    `╰${'─'.repeat(W - 2)}╯`,
  ])
    console.log(l);
  const hook = hookLine();
  const viaHook = hook !== '' && n % 2 === 0;
  stamp({ round: n, event: 'asked', viaHook });
  if (!viaHook) return;
  // As Claude Code does: the PermissionRequest hook runs with the request on its stdin while the dialog shows.
  const h = spawn('sh', ['-c', hook], { stdio: ['pipe', 'pipe', 'ignore'] });
  held = h;
  let out = '';
  h.stdout.on('data', (b) => {
    out += b.toString();
    if (out.includes('"allow"')) answered(n, 'hook-allowed');
  });
  h.stdin.end(
    JSON.stringify({
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command, description: 'Deploy' },
    }),
  );
}

function answered(n, event) {
  if (!asking || n !== round) return;
  stamp({ round: n, event });
  asking = false;
  console.log('  ✓ allowed: deploying\n\n❯ ');
}

process.stdin.setRawMode?.(true);
process.stdin.on('data', (b) => {
  for (const ch of b.toString('latin1')) {
    if (ch === '\x03') process.exit(0);
    stamp({ round, event: ch === '\r' ? 'read-enter' : `read-${ch}` });
    if (ch === '\r') answered(round, 'keys-taken');
  }
});
let last = 0;
setInterval(() => {
  const n = Number(fs.readFileSync(askFile, 'utf8').trim() || '0');
  if (n > last) {
    last = n;
    if (held && held.exitCode === null) held.kill();
    ask(n);
  }
}, 20);
