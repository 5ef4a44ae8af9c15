import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyStateEntry,
  parseCheckpointDoc,
  parseGrantedFile,
  parseHarnessConfig,
  parseHarnessConfigText,
  parseRunLog,
} from '../../src/sources/harness.js';

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/samples/harness');
const RUNS = { numRuns: 1000 };
// Every C0 control except newline, DEL and C1: none may reach the screen.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Every string in a value, object keys included. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

/** A parser result: a value (possibly null) and a list of problems, every string printable. */
function expectClean(r: { value: unknown; problems: unknown[] }): void {
  expect(r).toHaveProperty('value');
  expect(Array.isArray(r.problems)).toBe(true);
  for (const s of strings(r)) expect(s).not.toMatch(CONTROL);
}

const sample = (name: string): string => fs.readFileSync(path.join(SAMPLES, name), 'utf8');
const nasty = fc.constantFrom('\u001b', '\u001b[31m', '\u001b]0;t\u0007', '\r', '\n', '\t', '\u0000', '\u009b', '#', ':', ' ', 'ORCH decision: ', 'ESCALATE', 'granted at ');
/** Text mixing random characters with the escape sequences and keywords the parsers look for. */
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.array(fc.oneof(nasty, fc.string({ maxLength: 8 })), { maxLength: 40 }).map((a) => a.join('')));
/** Every prefix of a real sample: a file cut off mid-write. */
const truncated = (name: string) => {
  const full = sample(name);
  return fc.nat({ max: full.length }).map((n) => full.slice(0, n));
};

describe('harness parsers never throw and print nothing unsafe', () => {
  it('parseRunLog on random text and on decision lines with noise', () => {
    const line = fc.tuple(fc.option(fc.constantFrom('[2026-05-08T11:20:02Z] ', '2026-13-99 99:99 ', '[x] ')), fc.constant('ORCH decision: '), fc.string({ maxLength: 12 }), text);
    const log = fc.array(fc.oneof(text, line.map((parts) => parts.join(''))), { maxLength: 20 }).map((ls) => ls.join('\n'));
    fc.assert(
      fc.property(fc.oneof(text, log), (t) => {
        const r = parseRunLog(t, 'run.log');
        expectClean(r);
        if (r.value) expect(r.value.verb).toMatch(/^[A-Z_][A-Z0-9_-]*$/);
      }),
      RUNS,
    );
  });

  it('parseCheckpointDoc on random text and truncated samples', () => {
    const input = fc.oneof(text, truncated('checkpoint-plan-approval.md'), truncated('checkpoint-pre-done.md'));
    fc.assert(fc.property(input, (t) => expectClean(parseCheckpointDoc(t, 'checkpoint-x.md'))), RUNS);
  });

  it('parseGrantedFile on random text and truncated samples', () => {
    const input = fc.oneof(text, truncated('checkpoint-plan-approval.md.granted'));
    fc.assert(
      fc.property(input, (t) => {
        const r = parseGrantedFile(t, 'g');
        expectClean(r);
        if (r.value !== null) expect(Number.isNaN(Date.parse(r.value))).toBe(false);
      }),
      RUNS,
    );
  });

  it('parseHarnessConfigText on random text, random JSON and truncated samples', () => {
    const input = fc.oneof(text, fc.json(), truncated('config.with-checkpoints.json'), truncated('README.config-example.json'));
    fc.assert(fc.property(input, (t) => expectClean(parseHarnessConfigText(t, 'config.json'))), RUNS);
  });

  it('parseHarnessConfig on any value and on near-miss configs', () => {
    const type = fc.record({ name: fc.oneof(fc.string(), fc.anything()), description: fc.oneof(text, fc.anything()), triggerOn: fc.anything() }, { requiredKeys: [] });
    const config = fc.record(
      {
        checkpoints: fc.oneof(fc.anything(), fc.record({ enabled: fc.anything(), types: fc.oneof(fc.array(fc.oneof(type, fc.anything())), fc.anything()) }, { requiredKeys: [] })),
        models: fc.oneof(fc.anything(), fc.dictionary(text, fc.oneof(text, fc.anything()))),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), config), (v) => {
        const r = parseHarnessConfig(v, 'config.json');
        expectClean(r);
        expect(typeof r.value.enabled).toBe('boolean');
      }),
      RUNS,
    );
  });

  it('classifyStateEntry on random names', () => {
    const name = fc.oneof(text, text.map((t) => `checkpoint-${t}.md`), text.map((t) => `checkpoint-${t}.md.granted`), text.map((t) => `.checkpoint-${t}.fired`));
    fc.assert(
      fc.property(name, (n) => {
        const e = classifyStateEntry(n);
        for (const s of strings(e)) expect(s).not.toMatch(CONTROL);
        if (e.kind === 'pending' || e.kind === 'granted' || e.kind === 'fired') expect(e.name).toMatch(/^[A-Za-z0-9_.-]+$/);
      }),
      RUNS,
    );
  });
});
