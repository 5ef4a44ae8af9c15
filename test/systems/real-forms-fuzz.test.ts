/**
 * The parsers of the real tools' forms never throw and print nothing unsafe: harness decision lines
 * (role suffixes, batches), SAGE's orchestrator log and stream-json contexts, on random text and on
 * the fixtures cut off mid-write.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecisionLine } from '../../src/systems/harness/decision.js';
import { gateAnswer, lastLoggedAnswer } from '../../src/systems/sage/answer.js';
import { signalContextText } from '../../src/systems/sage/stream-json.js';
import { ESCAPES, hostileText, RUNS, truncated } from '../helpers/fuzz.js';
import { expectPrintable } from '../helpers/printable.js';

const decisionText = hostileText(
  [
    ...ESCAPES,
    'ORCH decision: ',
    'ORCH batch (',
    ' decisions, role=',
    '(role=',
    ')',
    ': ',
    ' | ',
    'NEXT_WORKER F-1',
    'ESCALATE',
  ],
  300,
);
const logText = hostileText(
  [
    ...ESCAPES,
    '[2026-05-08T12:30:17+00:00] ',
    '[INFO] ',
    'Resume status: ',
    'Resume signal detected!',
    'APPROVED',
    '\n',
  ],
  400,
);
const streamText = hostileText(
  [
    ...ESCAPES,
    '{"type":"assistant","message":{"content":[{"type":"text","text":"',
    '"}]}}',
    '{"type":"result","result":"',
    '"}',
    '\n',
    '\\u001b',
  ],
  400,
);

describe('real-form parsers never throw and print nothing unsafe', () => {
  it('parseDecisionLine', () => {
    fc.assert(
      fc.property(decisionText, (t) => {
        const d = parseDecisionLine(t);
        expectPrintable(d);
        if (d) expect(d.verb).toMatch(/^[A-Z_][A-Z0-9_-]*$/);
        // A single decision's role is never left in its reason (a batch's items are kept as written).
        if (d?.batch === null) expect(d.rest).not.toMatch(/\(role=[^)]*\)\s*$/);
      }),
      RUNS,
    );
  });

  it('lastLoggedAnswer and gateAnswer', () => {
    fc.assert(
      fc.property(
        fc.oneof(logText, truncated('sage/consumed/.sage/logs/orchestrator-v2.log.fixture')),
        fc.integer({ min: 0, max: 4e12 }),
        (t, raised) => {
          const a = lastLoggedAnswer(t);
          expectPrintable(a);
          const g = gateAnswer(raised, null, a);
          // Without a logged time there is nothing to answer the gate with.
          if (a?.atMs == null) expect(g.state).toBe('pending');
        },
      ),
      RUNS,
    );
  });

  it('signalContextText', () => {
    fc.assert(
      fc.property(fc.oneof(streamText, truncated('sage/consumed/.sage/state/.last_signal_context')), (t) => {
        expectPrintable(signalContextText(t));
      }),
      RUNS,
    );
  });
});
