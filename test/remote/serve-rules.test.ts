/**
 * Whose rules answer on a served box: none until the other side says, the operator's rules parsed
 * there as untrusted input (text only, bounded, JSON, the schema), the box's own on request or when
 * an older tower says nothing; what the box tells the other side, and what the door lets through.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OperatorRules } from '../../src/remote/operator-rules.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';
import type { LoadedRules } from '../../src/rules/load.js';
import { admitLine } from '../../src/remote/door.js';
import type { RulesState } from '../../src/remote/protocol.js';
import { ORDER_WHEN_MOVED, RULES } from '../../src/remote/protocol.js';
import { ServeRules } from '../../src/remote/serve-rules.js';
import { waitFor } from '../helpers/wait-for.js';

const OWN: LoadedRules = {
  file: '/box/rules.json',
  rules: [{ name: 'own' } as LoadedRules['rules'][number]],
  problem: null,
};
const made: { stop(): void }[] = [];
const tempDir = tempDirsPerTest('tower-rules-sent-');

afterEach(() => {
  for (const r of made.splice(0)) r.stop();
});

function serveRules(waitMs?: number) {
  const told: RulesState[] = [];
  const r = new ServeRules(
    () => OWN,
    (m) => told.push(m),
    waitMs,
  );
  made.push(r);
  return { r, told };
}

describe('whose rules answer on a served box', () => {
  it('answers nothing by rule until told, then by the operator’s rules, saying so once', () => {
    const { r, told } = serveRules();
    r.used([ORDER_WHEN_MOVED, RULES]);
    expect(r.current().rules).toEqual([]);
    expect(told).toEqual([]);
    r.received({ text: JSON.stringify({ rules: [{ name: 'checks', decision: 'allow', command: 'npm test' }] }) });
    expect(r.current().rules.map((x) => x.name)).toEqual(['checks']);
    r.current();
    expect(told).toEqual([{ type: 'rules', whose: 'yours', count: 1, problem: null }]);
    // None sent (the operator has no rules file): none answer here, and it is no problem.
    r.received({ text: null });
    expect(r.current().rules).toEqual([]);
    expect(told.at(-1)).toEqual({ type: 'rules', whose: 'yours', count: 0, problem: null });
  });

  it('parses what comes over ssh as untrusted: not text, too large, not JSON or not a rules file answers nothing, said', () => {
    const { r, told } = serveRules();
    r.used([RULES]);
    const cases: [unknown, RegExp][] = [
      [{ rules: [] }, /not text/],
      ['x'.repeat(1024 * 1024 + 1), /over 1048576 bytes/],
      ['{"rules": [', /not JSON/],
      [JSON.stringify({ rules: [{ decision: 'allow', shell: 'rm -rf /' }] }), /not a valid rules file/],
      [JSON.stringify({ rules: [{ decision: 'maybe' }] }), /not a valid rules file/],
    ];
    for (const [text, why] of cases) {
      r.received({ text });
      expect(r.current().rules).toEqual([]);
      expect(told.at(-1)).toMatchObject({ whose: 'yours', count: 0, problem: expect.stringMatching(why) });
    }
  });

  it("takes the box's own rules when asked, or at once for a tower that does not know the feature", () => {
    const asked = serveRules();
    asked.r.used([RULES]);
    asked.r.received({});
    expect(asked.r.current()).toBe(OWN);
    expect(asked.told).toEqual([{ type: 'rules', whose: 'box', count: 1, problem: null }]);

    const older = serveRules();
    older.r.used([ORDER_WHEN_MOVED]);
    expect(older.r.current()).toBe(OWN);
    // An older tower is told nothing: it would not know the message.
    expect(older.told).toEqual([]);
  });

  it("takes the box's own rules when the other side says nothing in time", async () => {
    const { r } = serveRules(50);
    expect(r.current().rules).toEqual([]);
    await waitFor(() => r.current() === OWN, 5000, { what: "the box's own rules" });
  });

  it('lets through the door only a rules state in its words, cleaned', () => {
    const ok = admitLine(JSON.stringify({ type: 'rules', whose: 'yours', count: 3, problem: 'bad\u001b]0;x\u0007' }));
    expect(ok.message).toEqual({ type: 'rules', whose: 'yours', count: 3, problem: 'bad' });
    for (const bad of [
      { type: 'rules', whose: 'skynet', count: 1, problem: null },
      { type: 'rules', whose: 'box', count: -1, problem: null },
      { type: 'rules', whose: 'box', count: 1 },
    ]) {
      const a = admitLine(JSON.stringify(bad));
      expect(a.message).toBeNull();
      expect(a.problems[0]).toMatch(/sent a rules message this tower cannot read/);
    }
  });
});

describe('the operator’s rules sent to a box set to yours', () => {
  /** What an OperatorRules over `file` writes to the box, once it has written. */
  async function sent(file: string): Promise<{ texts: (string | null)[]; rules: OperatorRules }> {
    const texts: (string | null)[] = [];
    const rules = new OperatorRules(file, (t) => texts.push(t));
    made.push(rules);
    rules.start();
    await waitFor(() => texts.length > 0, 5000, { what: 'the rules sent' });
    return { texts, rules };
  }

  it('sends the file read with this box’s trust: its text when safe, none when a symlink or others can write it', async () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o700);
    const real = path.join(dir, 'rules.json');
    const text = JSON.stringify({ rules: [{ name: 'tests', decision: 'allow', tool: 'Bash', command: 'npm test*' }] });
    fs.writeFileSync(real, text, { mode: 0o600 });
    expect((await sent(real)).texts).toEqual([text]);

    const link = path.join(dir, 'link.json');
    fs.symlinkSync(real, link);
    const viaLink = await sent(link);
    expect(viaLink.texts).toEqual([null]);
    expect(viaLink.rules.problem).toContain('is a symlink');

    const open = path.join(dir, 'open.json');
    fs.writeFileSync(open, text, { mode: 0o666 });
    fs.chmodSync(open, 0o666);
    const opened = await sent(open);
    expect(opened.texts).toEqual([null]);
    expect(opened.rules.problem).toMatch(/writ/);
  });
});
