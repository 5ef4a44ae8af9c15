/**
 * A box's decisions by rule on their way to the operator's screen: what the serve tells (only once
 * asked, the last few before too), what the door lets through (the schema, cleaned, bounded; a
 * tampered one is a problem and the next line still reads), each decision shown once whatever the
 * link does, and the row and count the screen makes of it.
 */
import { describe, expect, it } from 'vitest';
import type { RuleRecord, RuleTally } from '../../src/actions/rule-answer.js';
import { tallyWords } from '../../src/actions/rule-answer.js';
import { BoxDecisions } from '../../src/remote/box-decisions.js';
import { countDecision, decisionRow } from '../../src/remote/box-rule-rows.js';
import type { HostRuleDecision } from '../../src/remote/box-rule-rows.js';
import { admitLine } from '../../src/remote/door.js';
import { MAX_DECISION_SUBJECT, RULE_DECISIONS } from '../../src/remote/protocol.js';
import type { RuleDecision, ServerMessage } from '../../src/remote/protocol.js';
import { ServeDecisions, decisionOf } from '../../src/remote/serve-decisions.js';

const OSC52 = '\u001b]52;c;cm0gLXJmIH4K\u0007';

function record(over: Partial<RuleRecord> = {}): RuleRecord {
  return {
    time: '2026-11-27T21:00:00.000Z',
    said: 'allowed',
    rule: 'checks',
    why: 'checks allows every part',
    request: '1764277200-4242:0123456789abcdef',
    run: 'claude-team:quay',
    member: 'lead',
    box: 'quay',
    tool: 'Bash',
    subject: 'npm test && git status',
    input: '{"command":"npm test && git status"}',
    outcome: 'done',
    message: 'answered lead, by checks',
    ...over,
  };
}

const decision = (over: Partial<RuleDecision> = {}): RuleDecision => ({ ...decisionOf(record()), ...over });

describe('a served box telling its decisions by rule', () => {
  it('tells none until the other side asks, then the last ones made and each one after', () => {
    const sent: RuleDecision[] = [];
    const serve = new ServeDecisions((m) => sent.push(m));
    for (let i = 0; i < 60; i++) serve.record(record({ request: `1764277200-${i}` }));
    serve.used(['order-when-moved', 'rules']);
    expect(sent).toEqual([]);
    serve.used([RULE_DECISIONS]);
    // The backlog is bounded: the newest 50.
    expect(sent.map((d) => d.request)).toEqual(Array.from({ length: 50 }, (_, i) => `1764277200-${i + 10}`));
    serve.used([RULE_DECISIONS]);
    expect(sent).toHaveLength(50);
    serve.record(record({ said: 'would deny', outcome: null, request: '1764277200-99' }));
    expect(sent.at(-1)).toMatchObject({ type: 'rule-decision', said: 'would deny', outcome: null });
  });

  it('gives the same decision on the same request the same id, and a different one another', () => {
    const a = decisionOf(record());
    expect(decisionOf(record({ time: '2026-11-27T22:00:00.000Z' })).id).toBe(a.id);
    expect(decisionOf(record({ outcome: 'failed' })).id).not.toBe(a.id);
    expect(decisionOf(record({ said: 'would allow', outcome: null })).id).not.toBe(a.id);
    expect(decisionOf(record({ request: '1764277201-1' })).id).not.toBe(a.id);
    // The request line is cut to what the protocol carries.
    expect(decisionOf(record({ subject: 'x'.repeat(5000) })).subject).toHaveLength(MAX_DECISION_SUBJECT);
  });
});

describe('the door, for a decision by rule', () => {
  it('lets one through in its words, every text cleaned and fields it does not know dropped', () => {
    const sent = {
      ...decision(),
      rule: `checks${OSC52}`,
      subject: `npm test${OSC52}`,
      member: `lead${OSC52}`,
      extra: 'from a newer tower',
    };
    const a = admitLine(JSON.stringify(sent));
    expect(a.problems).toEqual([]);
    expect(a.message).toEqual({ ...decision(), rule: 'checks', subject: 'npm test', member: 'lead' });
  });

  it('turns a tampered one into a problem, and reads the next line', () => {
    const bad: unknown[] = [
      { ...decision(), said: 'approved' },
      // An answer without its outcome, a dry run with one: counted as what it is not.
      { ...decision(), outcome: null },
      { ...decision(), said: 'would allow' },
      { ...decision(), outcome: 'maybe' },
      { ...decision(), subject: 'x'.repeat(MAX_DECISION_SUBJECT + 1) },
      { ...decision(), rule: 'r'.repeat(81) },
      { ...decision(), time: 'yesterday' },
      { ...decision(), id: '' },
      { ...decision(), member: 7 },
      { type: 'rule-decision' },
    ];
    for (const b of bad) {
      const a = admitLine(JSON.stringify(b));
      expect(a.message, JSON.stringify(b).slice(0, 80)).toBeNull();
      expect(a.problems).toEqual([expect.stringMatching(/^sent a rule-decision message this tower cannot read: /)]);
    }
    expect(admitLine(JSON.stringify(decision())).message).toEqual(decision());
  });
});

describe('a box’s decisions on this side', () => {
  it('tells each id once, also when a serve started again tells it again', () => {
    const box = new BoxDecisions();
    const told: string[] = [];
    box.subscribe((d) => told.push(d.id));
    const dry = decision({ said: 'would allow', outcome: null, id: 'r1 would allow dry run' });
    box.received(dry);
    box.received(decision({ id: 'r2 allowed done' }));
    // The link came back: the new serve judged the request still held again.
    box.received({ ...dry, time: '2026-11-27T21:05:00.000Z' });
    expect(told).toEqual(['r1 would allow dry run', 'r2 allowed done']);
  });

  it('gives a listener that comes later the decisions so far, the newest 50', () => {
    const box = new BoxDecisions();
    for (let i = 0; i < 70; i++) box.received(decision({ id: `r${i}` }));
    const told: string[] = [];
    box.subscribe((d) => told.push(d.id));
    expect(told).toHaveLength(50);
    expect(told[0]).toBe('r20');
    box.received(decision({ id: 'r70' }));
    expect(told.at(-1)).toBe('r70');
  });

  it('makes a row naming the box, the member, the request and the rule, and counts as this box counts', () => {
    const on = (d: RuleDecision, whose: HostRuleDecision['whose']): HostRuleDecision => ({
      ...d,
      host: 'quay',
      runId: `quay/${d.run}`,
      whose,
    });
    expect(decisionRow(on(decision(), 'yours'))).toEqual({
      time: '2026-11-27T21:00:00.000Z',
      action: 'rule',
      runId: 'quay/claude-team:quay',
      target: null,
      status: 'done',
      message: "on quay: allowed lead's Bash: npm test && git status, by checks (your rules)",
    });
    const dry = decision({ said: 'would deny', outcome: null, rule: 'no rm', why: 'no rm denies "rm -rf /"' });
    expect(decisionRow(on(dry, 'box')).message).toBe(
      `on quay: would deny lead's Bash: npm test && git status, by no rm (the box's rules) (dry run: no rm ` +
        `denies "rm -rf /"); asked as before`,
    );
    const failed = decisionRow(on(decision({ said: 'denied', outcome: 'failed' }), null));
    expect(failed).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/, by checks; the answer failed$/),
    });

    const t: RuleTally = { allowed: 0, denied: 0, wouldAllow: 0, wouldDeny: 0 };
    for (const d of [
      decision(),
      decision(),
      decision({ said: 'denied' }),
      decision({ said: 'denied', outcome: 'failed' }),
      dry,
      decision({ said: 'would allow', outcome: null }),
    ])
      countDecision(t, d);
    expect(t).toEqual({ allowed: 2, denied: 1, wouldAllow: 1, wouldDeny: 1 });
    expect(tallyWords(t)).toBe('2 allowed by rule · 1 denied by rule · 2 by rule in dry run');
  });

  it('is one of the messages a box may send', () => {
    const m: ServerMessage = decision();
    expect(admitLine(JSON.stringify(m)).message?.type).toBe('rule-decision');
  });
});
