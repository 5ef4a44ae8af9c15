/* global process, setTimeout */
// A tampered `tower serve --stdio` for the door's tests: it speaks tower's protocol over the real
// ssh channel, then sends what a hostile or broken box could. Usage: node fake-far-side.mjs SCENE LOG
// (every line it reads from the local tower is appended to LOG).
import fs from 'node:fs';

const [scene, log] = process.argv.slice(2);
const OSC52 = '\u001b]52;c;cm0gLXJmIH4K\u0007';
const OSC0 = '\u001b]0;pwned\u0007';
const send = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const listen = () => process.stdin.on('data', (d) => fs.appendFileSync(log, d));

function run(name, patch = {}) {
  return {
    id: `harness:${name}`,
    system: 'harness',
    name,
    root: `/far/${name}`,
    status: 'waiting',
    phase: null,
    members: [{ name: 'lead', role: 'lead', model: 'm', paneId: '%1', state: 'alive', lead: true }],
    tasks: [],
    reviews: [],
    gates: [
      { id: 'deploy', kind: 'checkpoint', state: 'pending', since: null, grantable: true, title: 'Deploy', file: null },
    ],
    context: null,
    handoff: null,
    problems: [],
    stateDir: `/far/${name}/.harness`,
    ...patch,
  };
}

// A box that streams panes says so (a newer far side); the others are an older tower.
const streams = scene === 'pane-flood';
send({
  type: 'hello',
  protocol: 1,
  tower: `0.1.0${OSC0}`,
  hostname: `far${OSC52}`,
  tmux: [],
  ...(streams ? { features: ['activity', 'pane-preview'] } : {}),
});
const hostile = run('good', {
  status: 'running',
  phase: { current: `1${OSC52}`, total: 2, status: `exec${OSC0}` },
  gates: [
    {
      id: 'deploy',
      kind: 'checkpoint',
      state: 'pending',
      since: null,
      grantable: true,
      title: `Deploy${OSC52}`,
      file: null,
      body: `# Body${OSC0}\nline two`,
    },
  ],
  warnings: [`warm${OSC52}`],
});
send({
  type: 'snapshot',
  snapshot: {
    version: 1,
    generatedAt: new Date().toISOString(),
    runs: [hostile, run('alien', { system: 'skynet' }), null],
    problems: [{ file: null, message: `far problem${OSC52}` }],
  },
});

if (scene === 'hostile') {
  listen();
  await sleep(300);
  send({ type: 'changes', upsert: 5, remove: 5, order: 5 });
  await sleep(300);
  const gates = [
    ...hostile.gates,
    {
      id: `nul\u0000gate${OSC0}`,
      kind: 'checkpoint',
      state: 'pending',
      since: new Date().toISOString(),
      grantable: true,
      title: `Opened${OSC52}`,
      file: null,
    },
  ];
  send({
    type: 'changes',
    generatedAt: new Date().toISOString(),
    upsert: [{ ...hostile, gates }],
    remove: [],
    order: ['harness:good'],
  });
  await sleep(60_000);
} else if (scene === 'silent') {
  // Connected, and never answers a request.
  listen();
  await sleep(60_000);
} else if (scene === 'offers') {
  // Offers for requests nobody made, while not reading: answering them would pile up in ssh's stdin.
  for (let i = 0; i < 2000; i++) send({ type: 'offer', id: 1000 + i, alive: ['lead'] });
  await sleep(1500);
  listen();
  await sleep(60_000);
} else if (scene === 'pinned') {
  // Plans an answer bound to a held request (its id and input hash), then answers the run it is sent.
  const PIN = '1764000000-42:' + 'ab'.repeat(32);
  let buffered = '';
  process.stdin.on('data', (d) => {
    fs.appendFileSync(log, d);
    buffered += String(d);
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const msg = JSON.parse(line);
      if (msg.type === 'plan')
        send({
          type: 'plan',
          id: msg.id,
          plan: {
            request: { ...msg.request, request: PIN },
            run: null,
            title: 'Answer through the hook: allow Bash: touch A_SHOWN.txt',
            effects: [{ kind: 'create', text: 'create the answer file' }],
            refusal: null,
            destructive: true,
            approves: ['request 1764000000-42, tool Bash', '  command: touch A_SHOWN.txt'],
          },
        });
      else if (msg.type === 'run')
        send({
          type: 'outcome',
          id: msg.id,
          outcome:
            msg.request.request === PIN
              ? { status: 'done', message: 'allowed request 1764000000-42' }
              : { status: 'refused', message: `run without the request shown: ${msg.request.request ?? 'none'}` },
        });
    }
  });
  await sleep(60_000);
} else if (scene === 'pane-flood') {
  // Asked for a pane, it sends far more than a second's worth of lines, full of escape sequences.
  let flooding = false;
  process.stdin.on('data', async (d) => {
    fs.appendFileSync(log, d);
    if (flooding || !String(d).includes('"preview"') || String(d).includes('"pane":null')) return;
    flooding = true;
    const dirty = `\u001b[32mgreen\u001b[0m ${OSC52}${OSC0}\u001b[2J\u001b[H\u0007 ${'x'.repeat(900)}`;
    for (let i = 0; i < 3000; i++) {
      send({ type: 'pane', pane: '%1', server: null, drop: 0, keep: 0, lines: [`line ${i} ${dirty}`] });
      if (i % 100 === 0) await sleep(1);
    }
  });
  await sleep(60_000);
}
