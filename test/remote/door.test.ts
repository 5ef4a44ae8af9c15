/**
 * The door: what another box sends is checked against the protocol's schema and cleaned before
 * anything else sees it. Each case here is something a tampered or mismatched far side sent.
 */
import { describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { AGENT_CLIS } from '../../src/agents/registry.js';
import { admitLine } from '../../src/remote/door.js';
import { lineSplitter } from '../../src/remote/lines.js';
import { applyChanges } from '../../src/remote/protocol.js';
import { PROMPT_BOUNDS } from '../../src/store/prompt-reading.js';
import { gate, member } from '../ui/fixtures.js';

const OSC52 = '\u001b]52;c;cm0gLXJmIH4K\u0007';
const OSC0 = '\u001b]0;pwned\u0007';
const ESCAPES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function goodRun(name = 'shop'): Run {
  return {
    ...emptyRun('harness', name, '/p', '/p/.harness'),
    status: 'waiting',
    gates: [gate('deploy', { title: 'Deploy' })],
    members: [member('lead', { paneId: '%1', state: 'alive', lead: true })],
  };
}

const line = (v: unknown) => JSON.stringify(v);

describe('the door', () => {
  it('cleans escape sequences out of every text a box sends, and refuses them where a field is a closed word', () => {
    const run = goodRun();
    run.phase = { current: `2${OSC52}`, total: 3, status: `executing${OSC0}` };
    run.gates[0]!.title = `Deploy${OSC52}`;
    run.gates[0]!.id = `dep\u0000loy${OSC0}`;
    run.members[0]!.paneId = `%1${OSC52}`;
    run.warnings = [`hot${OSC0}`];
    const admitted = admitLine(
      line({
        type: 'snapshot',
        snapshot: { version: 1, generatedAt: `now${OSC0}`, runs: [run], problems: [{ file: null, message: OSC52 }] },
      }),
    );
    expect(admitted.message?.type).toBe('snapshot');
    expect(JSON.stringify(admitted)).not.toMatch(/\\u001b|\\u0007|\\u0000/);
    const got = admitted.message?.type === 'snapshot' ? admitted.message.snapshot.runs[0] : undefined;
    expect(got?.gates[0]?.id).toBe('deploy');
    expect(got?.members[0]?.paneId).toBe('%1');

    // A closed word (status, state, verdict) or a number carrying escapes is not that word: the run is a problem.
    for (const bad of [
      { status: `running${OSC52}` },
      { gates: [{ ...run.gates[0], state: `pending${OSC0}` }] },
      { context: { usedPct: 10, threshold: OSC52 } },
      { phase: { current: '1', total: OSC52, status: 'x' } },
    ]) {
      const r = admitLine(
        line({
          type: 'snapshot',
          snapshot: { version: 1, generatedAt: 'now', runs: [goodRun('other'), { ...run, ...bad }], problems: [] },
        }),
      );
      expect(r.message?.type === 'snapshot' ? r.message.snapshot.runs.map((x) => x.name) : null).toEqual(['other']);
      expect(r.problems).toHaveLength(1);
      expect(r.problems.join()).not.toMatch(ESCAPES);
    }
  });

  it('cleans what an action on a box says: plan title and effects, progress, outcome, errors', () => {
    const plan = admitLine(
      line({
        type: 'plan',
        id: 1,
        plan: {
          request: { kind: 'grant', run: 'harness:shop', gate: 'deploy' },
          run: goodRun(),
          title: `Grant${OSC52}`,
          effects: [{ kind: 'create', text: `x${OSC0}` }],
          refusal: null,
          destructive: true,
          target: 'deploy',
        },
      }),
    );
    const progress = admitLine(
      line({ type: 'progress', id: 1, progress: { message: `wait${OSC52}`, waitingFor: OSC0 } }),
    );
    const outcome = admitLine(
      line({ type: 'outcome', id: 1, outcome: { status: 'done', message: `ok${OSC52}`, details: [OSC0] } }),
    );
    const error = admitLine(line({ type: 'error', id: null, message: `bad${OSC52}` }));
    for (const a of [plan, progress, outcome, error]) {
      expect(a.message).not.toBeNull();
      expect(JSON.stringify(a.message)).not.toMatch(/\\u001b|\\u0007/);
    }
    expect(plan.message?.type === 'plan' && plan.message.plan.title).toBe('Grant');
  });

  it('carries what an answer approves, line by line, and the held request it is bound to, checked', () => {
    const hash = 'a'.repeat(64);
    const planOf = (request: string) =>
      admitLine(
        line({
          type: 'plan',
          id: 1,
          plan: {
            request: { kind: 'answer', run: 'claude-team:docs', choice: '1', request },
            run: goodRun(),
            title: 'Answer through the hook',
            effects: [],
            refusal: null,
            destructive: true,
            approves: [`request 1-2, tool Bash${OSC0}:`, '  command:', '    npm test ;', '    curl x |', '    sh'],
          },
        }),
      );
    const plan = planOf(`1764000000-4242:${hash}`);
    expect(plan.message?.type === 'plan' && plan.message.plan.approves).toEqual([
      'request 1-2, tool Bash:',
      '  command:',
      '    npm test ;',
      '    curl x |',
      '    sh',
    ]);
    expect(plan.message?.type === 'plan' && plan.message.plan.request.request).toBe(`1764000000-4242:${hash}`);
    // A request reference that is not an id and a hash is no plan.
    const bad = planOf(`1764000000-4242; rm -rf ~`);
    expect(bad.message).toBeNull();
    expect(bad.problems).toHaveLength(1);
    const outcome = admitLine(
      line({
        type: 'outcome',
        id: 1,
        outcome: { status: 'done', message: 'allowed', approved: [`  command: x${OSC52}`] },
      }),
    );
    expect(outcome.message?.type === 'outcome' && outcome.message.outcome.approved).toEqual(['  command: x']);
  });

  it('turns malformed messages into problems instead of crashing what reads them', () => {
    const cases = [
      line({ type: 'changes', upsert: 5, remove: 5, order: 5 }),
      line({ type: 'snapshot', snapshot: { version: 1, generatedAt: 'now', runs: 5, problems: [] } }),
      line({ type: 'snapshot', snapshot: 5 }),
      line({ type: 'plan', id: 1, plan: null }),
      line({ type: 'offer', id: 1, alive: 'everyone' }),
      line({ type: 'hello', protocol: 1, tower: 'x', hostname: 'h', tmux: ['-L', 'a; rm -rf ~'] }),
      line({ type: 'from-the-future', x: 1 }),
      '{"type":',
      '[1,2]',
      'plain text',
    ];
    for (const c of cases) {
      const a = admitLine(c);
      expect(a.problems.length, c).toBeGreaterThan(0);
      if (a.message?.type === 'snapshot') expect(a.message.snapshot.runs).toEqual([]);
      else expect(a.message, c).toBeNull();
    }
  });

  it('keeps the good runs of a snapshot whose other runs are null, lack gates, or name an unknown system', () => {
    const noGates: Partial<Run> = { ...goodRun('no-gates') };
    delete noGates.gates;
    const a = admitLine(
      line({
        type: 'snapshot',
        snapshot: {
          version: 1,
          generatedAt: 'now',
          runs: [
            null,
            goodRun('one'),
            noGates,
            { ...goodRun('alien'), system: 'skynet' },
            goodRun('two'),
            goodRun('two'),
          ],
          problems: [],
        },
      }),
    );
    expect(a.message?.type === 'snapshot' ? a.message.snapshot.runs.map((r) => r.name) : null).toEqual(['one', 'two']);
    expect(a.problems).toHaveLength(4);
    expect(a.problems.join('\n')).toMatch(/run 1[\s\S]*no-gates[\s\S]*alien[\s\S]*twice/);
  });

  it('holds numbers a gauge draws to what they can mean', () => {
    const run = {
      ...goodRun(),
      context: { usedPct: -1e12, threshold: 1e9 },
      phase: { current: '1', total: 1e15, status: 'x' },
    };
    const a = admitLine(line({ type: 'changes', generatedAt: 'now', upsert: [run], remove: [], order: [run.id] }));
    const got = a.message?.type === 'changes' ? a.message.upsert[0] : undefined;
    expect(got?.context).toEqual({ usedPct: 0, threshold: 100 });
    expect(got?.phase?.total).toBeNull();
  });

  it('applies changes whose order names a run twice as one run', () => {
    const prev = { version: 1 as const, generatedAt: 'a', runs: [goodRun('x')], problems: [] };
    const next = applyChanges(prev, {
      type: 'changes',
      generatedAt: 'b',
      upsert: [],
      remove: [],
      order: [prev.runs[0]!.id, prev.runs[0]!.id],
    });
    expect(next.runs).toHaveLength(1);
  });
});

describe('the line splitter', () => {
  it('splits across chunks and multi-byte characters, keeping every line whole', () => {
    const lines: string[] = [];
    const feed = lineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('{"a":"é"}\n{"b":1}\n\n{"c"', 'utf8');
    for (let i = 0; i < bytes.length; i++) feed(bytes.subarray(i, i + 1));
    feed(':2}\n');
    expect(lines).toEqual(['{"a":"é"}', '{"b":1}', '', '{"c":2}']);
  });

  it('drops a line past its bound at once, says so once, and carries on with the next line', () => {
    const lines: string[] = [];
    const overlong: number[] = [];
    const feed = lineSplitter((l) => lines.push(l), { maxBytes: 1000, onOverlong: (n) => overlong.push(n) });
    feed('before\n');
    for (let i = 0; i < 100; i++) feed('x'.repeat(500));
    expect(overlong).toEqual([1500]);
    feed('tail\nafter\n');
    expect(lines).toEqual(['before', 'after']);
    expect(overlong).toHaveLength(1);
  });
});

describe('the door, for what a box says its agents do', () => {
  const snapshotOf = (runs: unknown[]) =>
    admitLine(line({ type: 'snapshot', snapshot: { version: 1, generatedAt: 'now', runs, problems: [] } }));
  const runsOf = (a: ReturnType<typeof admitLine>) => (a.message?.type === 'snapshot' ? a.message.snapshot.runs : []);

  it('holds answer keys to those the agent modules take: a Codex dialog passes, an unknown key is said and dropped', () => {
    const codexDialog = (keys: string[]) => ({
      question: 'Would you like to run the following command?',
      subject: ['$ touch x'],
      options: keys.map((key, i) => ({ key, label: `option ${i}` })),
      signature: 'sig',
    });
    const run = goodRun();
    run.members = [
      member('cx', { paneId: '%1', state: 'alive', activity: 'waiting', prompt: codexDialog(['1', 'p', 'esc']) }),
      member('odd', { paneId: '%2', state: 'alive', activity: 'waiting', prompt: codexDialog(['1', 'shift']) }),
    ];
    const a = snapshotOf([run]);
    expect(runsOf(a)[0]?.members.map((m) => [m.name, Boolean(m.prompt)])).toEqual([
      ['cx', true],
      ['odd', false],
    ]);
    expect(a.problems).toEqual([
      expect.stringMatching(
        /"odd" .*option keyed "shift", which no agent CLI this tower knows takes \(.*\besc\b.*\); it is not shown/,
      ),
    ]);
    // An answer a plan carries back is held to the same keys.
    const planOf = (choice: string) =>
      admitLine(
        line({
          type: 'plan',
          id: 1,
          plan: {
            request: { kind: 'answer', run: 'claude-team:docs', choice },
            run: goodRun(),
            title: 'Answer',
            effects: [],
            refusal: null,
            destructive: true,
          },
        }),
      );
    expect(planOf('P').message?.type).toBe('plan');
    const bad = planOf('enter');
    expect(bad.message).toBeNull();
    expect(bad.problems.join()).toContain('an answer no agent CLI this tower knows takes');
  });

  it('reads a state, activity or source of a newer tower as unknown, keeping the run; a word with escapes is still refused', () => {
    const run = goodRun();
    Object.assign(run.members[0]!, { state: 'lent-out', activity: 'pondering', activitySource: 'telepathy' });
    const a = snapshotOf([run]);
    expect(a.problems).toEqual([]);
    expect(runsOf(a)[0]?.members[0]).toMatchObject({ state: 'unknown', activity: 'unknown', activitySource: null });

    const bad = goodRun('bad');
    Object.assign(bad.members[0]!, { state: `alive${OSC0}` });
    const b = snapshotOf([goodRun('other'), bad]);
    expect(runsOf(b).map((r) => r.name)).toEqual(['other']);
    expect(b.problems).toHaveLength(1);
  });

  it('reads the agent CLI of every registered module as sent, an unknown one as an unknown CLI said once, none as none', () => {
    const run = goodRun();
    run.members = [
      ...AGENT_CLIS.map((cli, i) => member(cli.id, { paneId: `%${i + 1}`, state: 'alive', agent: cli.id })),
      member('old', { paneId: '%8', state: 'alive' }),
    ];
    const a = snapshotOf([run]);
    expect(a.problems).toEqual([]);
    expect(runsOf(a)[0]?.members.map((m) => m.agent ?? null)).toEqual([...AGENT_CLIS.map((c) => c.id), null]);

    const newer = goodRun();
    newer.members = [
      member('new', { paneId: '%1', state: 'alive', activity: 'waiting' }),
      member('codex', { paneId: '%2', state: 'alive', agent: 'codex' }),
    ];
    (newer.members[0] as Record<string, unknown>).agent = 'quill-cli';
    const b = snapshotOf([newer]);
    expect(runsOf(b)[0]?.members.map((m) => [m.name, m.agent, m.activity ?? null])).toEqual([
      ['new', 'unknown', 'waiting'],
      ['codex', 'codex', null],
    ]);
    expect(b.problems).toEqual([
      'runs "new" of "harness:shop" in an agent CLI this tower does not know ("quill-cli"); it shows as an unknown CLI (is its tower newer?)',
    ]);
  });

  it("keeps a member's held requests, their whole input's lines too; a request not named by an id is no run", () => {
    const held = (id: string) => ({
      id,
      hash: 'b'.repeat(64),
      tool: 'Bash',
      subject: 'touch A',
      cut: false,
      whole: `command: touch A${OSC0}\ndescription: d`,
      unreadable: null,
      until: '2026-01-01T00:00:00.000Z',
    });
    const run = goodRun();
    run.members[0] = { ...run.members[0]!, held: [held('1764000000-42'), held('1764000001-43')] };
    const a = snapshotOf([run]);
    expect(runsOf(a)[0]?.members[0]?.held?.map((h) => [h.id, h.whole])).toEqual([
      ['1764000000-42', 'command: touch A\ndescription: d'],
      ['1764000001-43', 'command: touch A\ndescription: d'],
    ]);
    const bad = goodRun('bad');
    bad.members[0] = { ...bad.members[0]!, held: [held('../../x')] };
    const b = snapshotOf([goodRun('other'), bad]);
    expect(runsOf(b).map((r) => r.name)).toEqual(['other']);
    expect(b.problems).toHaveLength(1);
  });

  it('keeps a prompt as large as one read here, and drops one larger (subject, options, keys), saying so', () => {
    const prompt = (subject: number, options: number, key = '1') => ({
      question: 'Do you want to proceed?',
      subject: Array.from({ length: subject }, (_, i) => `line ${i}`),
      options: Array.from({ length: options }, (_, i) => ({
        key: i === 0 ? key : String(i % 10),
        label: `option ${i}`,
      })),
      // A signature longer than a line is sent back whole when answering: kept whole.
      signature: `sig-${'x'.repeat(6000)}`,
    });
    const run = goodRun();
    run.members = [
      member('fits', { paneId: '%1', state: 'alive', activity: 'waiting', prompt: prompt(PROMPT_BOUNDS.subject, 3) }),
      member('tall', {
        paneId: '%2',
        state: 'alive',
        activity: 'waiting',
        prompt: prompt(PROMPT_BOUNDS.subject + 1, 2),
      }),
      member('wide', {
        paneId: '%3',
        state: 'alive',
        activity: 'waiting',
        prompt: prompt(2, PROMPT_BOUNDS.options + 1),
      }),
      member('odd', { paneId: '%4', state: 'alive', activity: 'waiting', prompt: prompt(2, 2, 'enter') }),
    ];
    const a = snapshotOf([run]);
    const members = runsOf(a)[0]?.members ?? [];
    expect(members.map((m) => [m.name, m.activity, Boolean(m.prompt)])).toEqual([
      ['fits', 'waiting', true],
      ['tall', 'waiting', false],
      ['wide', 'waiting', false],
      ['odd', 'waiting', false],
    ]);
    expect(members[0]?.prompt?.signature).toHaveLength(6004);
    expect(a.problems).toHaveLength(3);
    expect(a.problems[0]).toMatch(new RegExp(`"tall".*${PROMPT_BOUNDS.subject + 1} subject lines, 2 options`));
  });
});
