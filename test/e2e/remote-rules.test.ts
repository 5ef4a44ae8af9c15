/**
 * Rules on a build box over real ssh (a private sshd): a request held by tower's hook on the box,
 * for an agent's pane there, is answered by the operator's rules when the host is set to
 * `rules: "yours"` (this tower's file sent to the box's `tower serve`), and by the box's own rules
 * file when set to `box`. The screen's header and `status --json` say whose rules answer on the
 * box; a box running an older tower, which cannot take the operator's rules, says so. Each decision
 * the box's rules make is a row on the operator's screen naming the box, counted in its header, a
 * denial shown on its member; shown once, also when the link to the box comes back.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostConfig } from '../../src/config/config.js';
import { hookCommand } from '../../src/commands/hooks-settings.js';
import type { HostState, Snapshot } from '../../src/model/model.js';
import { CompositeStore } from '../../src/remote/composite-store.js';
import { followBoxDecisions } from '../../src/remote/box-rule-rows.js';
import type { HostRuleDecision } from '../../src/remote/box-rule-rows.js';
import { writeFile } from '../helpers/box.js';
import type { RemoteBox } from '../helpers/remote-box.js';
import { agentPane, startFleet, tmuxOn, writeCrew } from '../helpers/ssh-fleet.js';
import type { Fleet } from '../helpers/ssh-fleet.js';
import { waitFor } from '../helpers/wait-for.js';

const FAKE = path.join(import.meta.dirname, '..', 'helpers', 'fake-far-side.mjs');
const REQUEST = {
  session_id: 'abc123',
  cwd: '/tmp',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm test && git status', description: 'Run the tests' },
};

let fleet: Fleet;
let box: RemoteBox;
let pane: string;
let socket: string;
let operatorRules: string;
const stores: CompositeStore[] = [];
const children: ReturnType<typeof spawn>[] = [];

/** A rules file no one else can write. */
function writeRules(file: string, rules: unknown[], more: object = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(file), 0o700);
  fs.writeFileSync(file, JSON.stringify({ ...more, rules }), { mode: 0o600 });
}

beforeAll(async () => {
  fleet = await startFleet('tower-e2e-rules', { q: 'quay' }, ['far']);
  box = fleet.boxes.q!;
  const boxConfig = path.join(fleet.dir, 'box-q', 'config', 'tower');
  writeFile(path.join(boxConfig, 'config.json'), { pollIntervalMs: 500 });
  // The box's own rules deny the tests; the operator's allow them.
  writeRules(path.join(boxConfig, 'rules.json'), [
    { name: 'box says no', decision: 'deny', tool: 'Bash', command: 'npm test*' },
  ]);
  operatorRules = path.join(fleet.home, 'rules.json');
  writeRules(operatorRules, [
    { name: 'checks', decision: 'allow', tool: 'Bash', command: ['npm test', 'git status'] },
    { name: 'no rm', decision: 'deny', tool: 'Bash', command: 'rm *' },
  ]);
  pane = await agentPane(box.socketName, box.root, 'sh -c "echo agent; sleep 100000"');
  socket = (await tmuxOn(box.socketName, 'display-message', '-p', '#{socket_path}')).trim();
  writeCrew(box.claudeDir, box.root, [{ name: 'lead', pane, joinedAt: Date.now() }], Date.now());
}, 60_000);

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.stop()));
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

afterAll(async () => {
  await fleet?.stop();
});

/** Runs the installed PermissionRequest line on the box as Claude Code would there; resolves with what it printed. */
function holdOnBox(command = REQUEST.tool_input.command): Promise<string> {
  const child = spawn('sh', ['-c', hookCommand(30)], {
    env: {
      PATH: process.env.PATH,
      HOME: box.root,
      XDG_STATE_HOME: box.xdgState,
      TMUX_PANE: pane,
      TMUX: `${socket},1,0`,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stdin.on('error', () => undefined);
  child.stdin.end(JSON.stringify({ ...REQUEST, tool_input: { ...REQUEST.tool_input, command } }));
  return new Promise<string>((resolve) => child.on('close', () => resolve(out)));
}

function store(host: HostConfig, rulesFile = operatorRules): CompositeStore {
  const s = new CompositeStore({
    hosts: [host],
    local: null,
    timeoutSec: 15,
    reconnect: true,
    rulesFile,
  });
  stores.push(s);
  void s.start();
  return s;
}

/** The host's state once it says whose rules answer there. */
const hostRules = (s: CompositeStore): Promise<HostState> =>
  waitFor(() => s.getSnapshot().hosts?.find((h) => h.rules) ?? false, 20_000, { what: 'whose rules answer' });

/** The box's audit lines of decisions by the rule `name` (`answer`, or `rule` for a dry run), ended ones. */
const boxAudit = (name: string, action = 'answer') =>
  fs
    .readFileSync(path.join(box.xdgState, 'tower', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.action === action && (l.rule as { rule?: string })?.rule === name && l.outcome !== 'begun');

/** The box's audit line of an answer by the rule `name`, once it is written. */
const boxAnswer = (name: string) =>
  waitFor(() => boxAudit(name).at(-1) ?? false, 10_000, { what: "the box's audit line" });

/** `text` on the screen, also when the activity pane wraps it over its rows (at a space, inside the frame). */
const wrapped = (text: string): RegExp =>
  new RegExp(
    text
      .split(' ')
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s│]+'),
  );

/** The decisions by rule the box tells `s`, as the screen gets them. */
function decisionsOf(s: CompositeStore): HostRuleDecision[] {
  const told: HostRuleDecision[] = [];
  followBoxDecisions(s, (d) => told.push(d));
  return told;
}

/** The box's `tower serve` processes (one per tower connected to it). */
function servesOnBox(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv.includes('serve') && argv.includes(box.claudeDir)) pids.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return pids;
}

describe('rules on another box', () => {
  it('set to yours: the screen and status --json say so, and the operator’s rules allow on the box', async () => {
    const config = { local: false, hostRules: 'yours', hosts: [fleet.host(box)] };
    const room = await fleet.controlRoom(config);
    await room.waitForScreen('rules: yours on q');

    const said = await holdOnBox();
    expect(JSON.parse(said)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
    const answer = await boxAnswer('checks');
    expect(answer).toMatchObject({ outcome: 'done' });
    expect(answer).toMatchObject({ rule: { rule: 'checks' } });
    // The operator sees the box's decision: a row naming the box, and the header counts it.
    await room.waitForScreen('1 allowed by rule');
    await room.waitForScreen(wrapped("on q: allowed lead's Bash: npm test && git status, by checks (your rules)"));

    // A request the operator's rules deny: denied on the box, the member shows the rule here.
    const denied = await holdOnBox('rm -rf build');
    expect(JSON.parse(denied)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    await room.waitForScreen('1 allowed by rule · 1 denied by rule');
    await room.waitForScreen(wrapped("on q: denied lead's Bash: rm -rf build, by no rm (your rules)"));
    // The member's own run, selected: its row in the team pane says which rule denied it.
    await room.press('Down');
    await room.waitForScreen(/lead .*✗ denied: no rm/);

    const r = await execa(
      process.execPath,
      [fleet.cli.bin, 'status', '--json', '--config', `${fleet.home}/config.json`],
      {
        reject: false,
        env: {
          HOME: fleet.home,
          XDG_STATE_HOME: `${fleet.home}/state`,
          XDG_CONFIG_HOME: `${fleet.home}/xdg`,
          TMUX: '',
        },
        stdin: 'ignore',
        timeout: 30_000,
      },
    );
    const snap = JSON.parse(String(r.stdout)) as Snapshot;
    expect(snap.hosts?.[0]).toMatchObject({ name: 'q', state: 'ok', rules: { whose: 'yours', problem: null } });
    await room.press('q');
    await room.waitForScreen('TOWER-EXIT=0');
    // Each tower connected to the box has its serve there answering by the rules it was told: gone with it.
    await waitFor(() => servesOnBox().length === 0, 20_000, { what: 'the box to end the serves of towers gone' });
  }, 90_000);

  it("set to box: the box's own rules answer there, and the host says whose", async () => {
    expect(servesOnBox()).toEqual([]);
    const s = store({ ...fleet.host(box), rules: 'box' });
    const told = decisionsOf(s);
    expect((await hostRules(s)).rules).toEqual({ whose: 'box', problem: null });
    const said = await holdOnBox();
    expect(JSON.parse(said)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    expect(await boxAnswer('box says no')).toMatchObject({ outcome: 'done', rule: { rule: 'box says no' } });
    const [d] = await waitFor(() => (told.length ? told : false), 10_000, { what: "the box's decision" });
    expect(told).toHaveLength(1);
    expect(d).toMatchObject({
      host: 'q',
      runId: expect.stringMatching(/^q\//),
      member: 'lead',
      said: 'denied',
      rule: 'box says no',
      outcome: 'done',
      whose: 'box',
      subject: expect.stringContaining('npm test && git status'),
    });
  }, 60_000);

  it("tower watch prints a line for each decision another box's rules make", async () => {
    expect(servesOnBox()).toEqual([]);
    const config = path.join(fleet.home, 'watch', 'config.json');
    writeFile(config, { local: false, hosts: [{ ...fleet.host(box), rules: 'box' }] });
    const watch = spawn(process.execPath, [fleet.cli.bin, 'watch', '--config', config], {
      env: { PATH: process.env.PATH, HOME: fleet.home, XDG_STATE_HOME: `${fleet.home}/state`, TMUX: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(watch);
    let out = '';
    watch.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const said = await holdOnBox();
    expect(JSON.parse(said)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    const line = await waitFor(() => out.split('\n').find((l) => l.includes('"rule-decision"')) ?? false, 10_000, {
      what: 'the rule-decision line',
    });
    expect(JSON.parse(line)).toMatchObject({
      event: 'rule-decision',
      run: expect.stringMatching(/^q\//),
      box: 'q',
      whose: 'box',
      said: 'denied',
      rule: 'box says no',
      member: 'lead',
      outcome: 'done',
    });
    const ended = new Promise((resolve) => watch.once('close', resolve));
    watch.kill('SIGTERM');
    await ended;
    await waitFor(() => servesOnBox().length === 0, 20_000, { what: 'the box to end the serve of the watch gone' });
  }, 60_000);

  it('a box of an older tower cannot take your rules: it says so, and its own rules answer there', async () => {
    const log = path.join(fleet.dir, 'far.log');
    fs.writeFileSync(log, '');
    const far: HostConfig = {
      name: 'far',
      destination: 'far',
      sshArgs: ['-F', fleet.lab.sshConfig],
      tower: `${process.execPath} ${FAKE} silent ${log}`,
      rules: 'yours',
    };
    const s = store(far);
    const h = await hostRules(s);
    expect(h.rules).toEqual({ whose: 'box', problem: expect.stringContaining('cannot take your rules') });
    expect(s.getSnapshot().problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(/^host far: runs an older tower .* cannot take your rules: its own rules answer there$/),
    );
    // Nothing was sent it: an older tower would not know the message; nor asked for decisions it cannot tell.
    expect(fs.readFileSync(log, 'utf8')).not.toContain('"rules"');
    expect(fs.readFileSync(log, 'utf8')).not.toContain('rule-decisions');
    expect(decisionsOf(s)).toEqual([]);
  }, 60_000);

  it('a decision is shown once when the link comes back and the box decides a request still held again', async () => {
    const dryRules = path.join(fleet.home, 'dry', 'rules.json');
    writeRules(
      dryRules,
      [{ name: 'watch tests', decision: 'allow', tool: 'Bash', command: ['npm test', 'git status'] }],
      {
        dryRun: true,
      },
    );
    const s = store({ ...fleet.host(box), rules: 'yours' }, dryRules);
    const told = decisionsOf(s);
    await hostRules(s);
    // In dry run the request is asked as before: it stays held while the link goes and comes back.
    void holdOnBox();
    await waitFor(() => told.length === 1, 15_000, { what: 'the dry-run decision' });
    expect(told[0]).toMatchObject({ said: 'would allow', rule: 'watch tests', outcome: null, whose: 'yours' });
    const serves = servesOnBox();
    expect(serves).toHaveLength(1);
    for (const pid of serves) process.kill(pid, 'SIGKILL');
    // The serve started again decides the same request again (its audit line says so) and tells it.
    await waitFor(() => boxAudit('watch tests', 'rule').length >= 2, 30_000, { what: 'the second serve to decide' });
    // A later request's decision comes after the repeated one on the same stream: then all were told.
    void holdOnBox('git status');
    await waitFor(() => told.some((d) => d.subject.includes('git status') && !d.subject.includes('npm')), 15_000, {
      what: 'the later decision',
    });
    expect(told.map((d) => d.id)).toHaveLength(new Set(told.map((d) => d.id)).size);
    expect(told.filter((d) => d.subject.includes('npm test'))).toHaveLength(1);
  }, 90_000);
});
