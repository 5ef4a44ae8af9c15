import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseLastSignal,
  parseResumeSignal,
  parseSageSignals,
  parseSageState,
  parseSageStateText,
} from '../../src/systems/sage/read.js';
import { ESCAPES, expectCleanResult, hostileText, RUNS, truncated } from '../helpers/fuzz.js';
import { expectPrintable } from '../helpers/printable.js';

const text = hostileText(
  [
    ...ESCAPES,
    '\u001b[1m',
    '\u009b',
    ':',
    '═══',
    '====',
    'SAGE_SIGNAL:',
    'HITL_REQUIRED',
    'STATUS: ',
    'APPROVED',
    'KEY: ',
  ],
  400,
);

/** Captures made of signal-like lines: boxes, rules, fields, one-liners, noise. */
const capture = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '═══ SAGE_SIGNAL:CHECKPOINT ═══',
        '═══════════',
        '============================================',
        'SAGE_SIGNAL:HITL_REQUIRED',
        '',
      ),
      fc
        .tuple(
          fc.constantFrom('SAGE_SIGNAL:', '═══ SAGE_SIGNAL:', '⏺ SAGE_SIGNAL:'),
          fc.string({ maxLength: 20 }),
          fc.constantFrom('', ' ═══', ':x'),
        )
        .map((p) => p.join('')),
      fc.tuple(fc.string({ maxLength: 10 }), fc.constant(': '), text).map((p) => p.join('')),
      text,
    ),
    { maxLength: 30 },
  )
  .map((ls) => ls.join('\n'));

const samples = fc.oneof(
  truncated('samples/sage/checkpoint.nested.template.json'),
  truncated('samples/sage/current-checkpoint.flat.heredoc-template.txt'),
  truncated('samples/sage/run-epic.state-schema.json'),
  truncated('sage/nested-hitl/.sage/state/EPIC-7.json'),
  truncated('sage/run-epic/.sage/state/run-epic-state.json'),
  truncated('sage/flat/.sage/state/current-checkpoint.json'),
);

describe('SAGE parsers never throw and print nothing unsafe', () => {
  it('parseSageSignals on random text, signal-like captures and the sample box', () => {
    fc.assert(
      fc.property(fc.oneof(text, capture, truncated('samples/sage/signal-block.txt')), (t) => {
        const signals = parseSageSignals(t);
        expect(Array.isArray(signals)).toBe(true);
        for (const s of signals) expect(s.type).toMatch(/^[A-Z][A-Z0-9_]*$/);
        expectPrintable(signals);
      }),
      RUNS,
    );
  });

  it('parseLastSignal on random text and captures', () => {
    fc.assert(
      fc.property(fc.oneof(text, capture), (t) => expectCleanResult(parseLastSignal(t, '.last_signal'))),
      RUNS,
    );
  });

  it('parseResumeSignal on random text', () => {
    fc.assert(
      fc.property(text, (t) => {
        const r = parseResumeSignal(t, '.resume-signal');
        expectCleanResult(r);
        expect(r.value === null || ['APPROVED', 'REVISE', 'DISCUSS', 'HALT'].includes(r.value)).toBe(true);
      }),
      RUNS,
    );
  });

  it('parseSageStateText on random text, random JSON and truncated samples', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.json(), samples), (t) => expectCleanResult(parseSageStateText(t, 'state.json'))),
      RUNS,
    );
  });

  it('parseSageState on any value and on near-miss states of every shape', () => {
    const any = fc.oneof(fc.anything(), text);
    const nested = fc.record(
      {
        updated: any,
        lifecycle: fc.oneof(any, fc.record({ phase: any, phase_name: any })),
        epic: fc.oneof(
          any,
          fc.record({ id: any, status: any, stories_total: any, stories_complete: any }, { requiredKeys: [] }),
        ),
        current: fc.oneof(
          any,
          fc.record({ story_id: any, task_index: any, task_total: any, step: any }, { requiredKeys: [] }),
        ),
        completed: fc.oneof(any, fc.array(fc.oneof(any, fc.record({ story_id: any, status: any })))),
        next_action: fc.oneof(
          any,
          fc.record({ type: fc.oneof(any, fc.constantFrom('hitl', 'complete')), description: any }),
        ),
      },
      { requiredKeys: [] },
    );
    const flat = fc.record(
      { epic_id: any, story_id: any, task_index: any, status: any, phase: any, updated_at: any },
      { requiredKeys: ['epic_id'] },
    );
    const runEpic = fc.record(
      {
        story_queue: fc.oneof(fc.array(any), any),
        current_story_index: fc.oneof(fc.integer(), any),
        phase: any,
        completed_stories: fc.oneof(fc.array(any), any),
        failed_stories: fc.oneof(fc.array(any), any),
        chunk_queue: any,
        error: any,
      },
      { requiredKeys: ['current_story_index'] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), nested, flat, runEpic), (v) =>
        expectCleanResult(parseSageState(v, 'state.json')),
      ),
      RUNS,
    );
  });
});
