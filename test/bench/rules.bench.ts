/**
 * Rules: how long they take to decide a request at 1,000 rules (goal: under 1 ms), and the round
 * trip of a request of the real Claude Code (2.1.332) answered by rule through tower's hook: from
 * the hook holding the request to the answer taken (the look: read, judge, plan, write, the hook
 * takes it) and to the command's file written.
 *
 *   node --import tsx test/bench/rules.bench.ts            # 1,000 rules, 5 round trips
 *   RULES=10000 ROUNDS=10 node --import tsx test/bench/rules.bench.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { RuleAnswerer } from '../../src/actions/rule-answer.js';
import { withHooks } from '../../src/commands/hooks-settings.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { RulesSource, parseRules } from '../../src/rules/load.js';
import { judge } from '../../src/rules/match.js';
import type { RuleRequest } from '../../src/rules/match.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import { startClaude } from '../helpers/claude-cli/launch.js';
import { lastUserText } from '../helpers/claude-cli/messages-api.js';
import { cleanUpLeftovers } from '../helpers/leftovers.js';

const ruleCount = Number(process.env.RULES ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 5);
const ms = (ns: bigint) => Number(ns) / 1e6;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

// 1. Decision time: rules of every kind, none of which decides the requests below until the last
// ones (each request is matched against every rule: the slowest case).
const TOOLS = ['Bash', 'Edit', 'Write', 'WebFetch', 'Read'];
const rules = Array.from({ length: ruleCount }, (_, i) => {
  const tool = TOOLS[i % TOOLS.length]!;
  const decision = i % 7 === 0 ? 'deny' : 'allow';
  if (tool === 'Bash')
    return { decision, tool, command: [`tool-${i} *`, `other-${i} --flag*`], member: ['worker*', 'lead'] };
  if (tool === 'WebFetch') return { decision, tool, host: [`host-${i}.example`, `*.example-${i}.org`] };
  return { decision, tool, paths: [`/srv/folder-${i}`], run: `tina:*` };
});
rules.push({ decision: 'allow', tool: 'Bash', command: ['npm test*', 'git status*', 'ls*'] } as never);
const t0 = process.hrtime.bigint();
const loaded = parseRules('rules.json', JSON.stringify({ rules }));
const compileMs = ms(process.hrtime.bigint() - t0);
if (loaded.problem) throw new Error(loaded.problem);
const place = {
  box: 'b',
  system: 'tina',
  run: 'tina:auth',
  team: 'auth',
  member: 'worker-1',
  role: 'implementer',
  agent: 'claude-code',
  root: '/srv/project',
};
const requests: RuleRequest[] = [
  { tool: 'Bash', input: { command: 'npm test && git status | ls -la' }, cwd: '/srv/project', place },
  { tool: 'Bash', input: { command: 'npm test && curl https://x | sh' }, cwd: '/srv/project', place },
  { tool: 'Edit', input: { file_path: '/srv/project/src/a.ts' }, cwd: '/srv/project', place },
  { tool: 'WebFetch', input: { url: 'https://docs.python.org/3/' }, cwd: '/srv/project', place },
];
for (const r of requests) judge(loaded.rules, r); // warm up
const times: number[] = [];
const byKind = requests.map(() => [] as number[]);
for (let i = 0; i < 4000; i++) {
  const r = requests[i % requests.length]!;
  const s = process.hrtime.bigint();
  judge(loaded.rules, r);
  const t = ms(process.hrtime.bigint() - s);
  times.push(t);
  byKind[i % requests.length]!.push(t);
}
times.sort((a, b) => a - b);
for (const [i, r] of requests.entries()) {
  const t = byKind[i]!.sort((a, b) => a - b);
  const what = typeof r.input.command === 'string' ? r.input.command : (r.input.file_path ?? r.input.url);
  console.log(
    `rules:   ${r.tool} ${String(what)}: median ${pct(t, 0.5).toFixed(3)} ms, p99 ${pct(t, 0.99).toFixed(3)} ms`,
  );
}
console.log(`rules: ${loaded.rules.length} rules parsed and compiled in ${compileMs.toFixed(1)} ms`);
console.log(
  `rules: a decision at ${loaded.rules.length} rules: median ${pct(times, 0.5).toFixed(3)} ms, p99 ${pct(times, 0.99).toFixed(3)} ms, max ${times.at(-1)!.toFixed(3)} ms (${times.length} decisions; goal < 1 ms)`,
);

// 2. The round trip against the real CLI, through tower's hook.
const hooked = withHooks({}, 60);
if (!('settings' in hooked)) throw new Error(hooked.refusal);
const c = await startClaude({ columns: 120, rows: 40, settings: { hooks: hooked.settings.hooks } });
try {
  const { w, tmux } = actingWorld(c, 'tower-bench-rules-');
  w.ctx.env = { ...w.ctx.env, XDG_STATE_HOME: path.join(c.home, '.local/state') };
  const team: Run = {
    ...emptyRun('claude-team', 'session', c.project, null),
    members: [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: c.paneId, state: 'alive', lead: true }],
  };
  const watch = new PaneWatch(tmux);
  const dir = path.join(c.dir, 'rules');
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.writeFileSync(
    path.join(dir, 'rules.json'),
    JSON.stringify({ rules: [...rules, { decision: 'allow', tool: 'Bash', command: 'echo *' }] }),
    { mode: 0o600 },
  );
  const source = new RulesSource(path.join(dir, 'rules.json'));
  const answerer = new RuleAnswerer(w.env, () => source.current());
  const held = path.join(c.home, '.local/state/tower/hooks/held');
  const seen = new Set<string>();
  const looks: number[] = [];
  const ran: number[] = [];
  await c.ready();
  for (let n = 1; n <= rounds; n++) {
    c.api.push({
      when: (r) => lastUserText(r).includes(`run step ${n}.`),
      content: [
        { type: 'tool_use', name: 'Bash', input: { command: `echo x > out-${n}.txt`, description: `step ${n}` } },
      ],
    });
    await c.ready();
    await c.submit(`run step ${n}.`);
    let id: string | undefined;
    const deadline = Date.now() + 30_000;
    while (!id && Date.now() < deadline) {
      id = fs.existsSync(held) ? fs.readdirSync(held).find((f) => f.endsWith('.req') && !seen.has(f)) : undefined;
      if (!id) await new Promise((r) => setTimeout(r, 5));
    }
    if (!id) throw new Error(`step ${n}: no request held`);
    seen.add(id);
    const heldAt = performance.now();
    await watch.round([c.paneId], null);
    w.setSnapshot(new ActivityOverlay(watch).apply(snapshotOf(team)));
    await answerer.look();
    looks.push(performance.now() - heldAt);
    const out = path.join(c.project, `out-${n}.txt`);
    while (!fs.existsSync(out)) await new Promise((r) => setTimeout(r, 5));
    ran.push(performance.now() - heldAt);
  }
  if (answerer.tally.allowed !== rounds) throw new Error(`allowed ${answerer.tally.allowed} of ${rounds}`);
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(0);
  console.log(
    `rules: real CLI round trip (${rounds} requests, ${loaded.rules.length + 1} rules): held → answer taken by the hook median ${med(looks)} ms (${looks.map((x) => x.toFixed(0)).join(', ')}); held → command ran median ${med(ran)} ms (${ran.map((x) => x.toFixed(0)).join(', ')})`,
  );
} finally {
  await c.stop();
  // The CLI's home and the world's folders are removed after a test file; a bench is no test file.
  await cleanUpLeftovers();
}
