import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyStateEntry,
  parseCheckpointDoc,
  parseGrantedFile,
  parseHarnessConfig,
  parseHarnessConfigText,
  parseRunLog,
} from '../../src/systems/harness/read.js';
import { ESCAPES, expectCleanResult, hostileText, RUNS, truncated } from '../helpers/fuzz.js';
import { expectPrintable } from '../helpers/printable.js';

/** Text mixing random characters with the escape sequences and keywords the parsers look for. */
const text = hostileText([...ESCAPES, '\u009b', '#', ':', ' ', 'ORCH decision: ', 'ESCALATE', 'granted at '], 400);
/** A real sample (test/fixtures/samples/harness) cut off mid-write. */
const sample = (name: string) => truncated(`samples/harness/${name}`);

describe('harness parsers never throw and print nothing unsafe', () => {
  it('parseRunLog on random text and on decision lines with noise', () => {
    const line = fc.tuple(
      fc.option(fc.constantFrom('[2026-05-08T11:20:02Z] ', '2026-13-99 99:99 ', '[x] ')),
      fc.constant('ORCH decision: '),
      fc.string({ maxLength: 12 }),
      text,
    );
    const log = fc
      .array(
        fc.oneof(
          text,
          line.map((parts) => parts.join('')),
        ),
        { maxLength: 20 },
      )
      .map((ls) => ls.join('\n'));
    fc.assert(
      fc.property(fc.oneof(text, log), (t) => {
        const r = parseRunLog(t, 'run.log');
        expectCleanResult(r);
        if (r.value) expect(r.value.verb).toMatch(/^[A-Z_][A-Z0-9_-]*$/);
      }),
      RUNS,
    );
  });

  it('parseCheckpointDoc on random text and truncated samples', () => {
    const input = fc.oneof(text, sample('checkpoint-plan-approval.md'), sample('checkpoint-pre-done.md'));
    fc.assert(
      fc.property(input, (t) => expectCleanResult(parseCheckpointDoc(t, 'checkpoint-x.md'))),
      RUNS,
    );
  });

  it('parseGrantedFile on random text and truncated samples', () => {
    const input = fc.oneof(text, sample('checkpoint-plan-approval.md.granted'));
    fc.assert(
      fc.property(input, (t) => {
        const r = parseGrantedFile(t, 'g');
        expectCleanResult(r);
        if (r.value !== null) expect(Number.isNaN(Date.parse(r.value))).toBe(false);
      }),
      RUNS,
    );
  });

  it('parseHarnessConfigText on random text, random JSON and truncated samples', () => {
    const input = fc.oneof(
      text,
      fc.json(),
      sample('config.with-checkpoints.json'),
      sample('README.config-example.json'),
    );
    fc.assert(
      fc.property(input, (t) => expectCleanResult(parseHarnessConfigText(t, 'config.json'))),
      RUNS,
    );
  });

  it('parseHarnessConfig on any value and on near-miss configs', () => {
    const type = fc.record(
      {
        name: fc.oneof(fc.string(), fc.anything()),
        description: fc.oneof(text, fc.anything()),
        triggerOn: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const config = fc.record(
      {
        checkpoints: fc.oneof(
          fc.anything(),
          fc.record(
            { enabled: fc.anything(), types: fc.oneof(fc.array(fc.oneof(type, fc.anything())), fc.anything()) },
            { requiredKeys: [] },
          ),
        ),
        models: fc.oneof(fc.anything(), fc.dictionary(text, fc.oneof(text, fc.anything()))),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), config), (v) => {
        const r = parseHarnessConfig(v, 'config.json');
        expectCleanResult(r);
        expect(typeof r.value.enabled).toBe('boolean');
      }),
      RUNS,
    );
  });

  it('classifyStateEntry on random names', () => {
    const name = fc.oneof(
      text,
      text.map((t) => `checkpoint-${t}.md`),
      text.map((t) => `checkpoint-${t}.md.granted`),
      text.map((t) => `.checkpoint-${t}.fired`),
    );
    fc.assert(
      fc.property(name, (n) => {
        const e = classifyStateEntry(n);
        expectPrintable(e);
        if (e.kind === 'pending' || e.kind === 'granted' || e.kind === 'fired')
          expect(e.name).toMatch(/^[A-Za-z0-9_.-]+$/);
      }),
      RUNS,
    );
  });
});
