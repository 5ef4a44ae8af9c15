/**
 * SAGE's answered gate, on text shaped like what kwg/sage-method writes: the orchestrator's log
 * (bin/orchestrate-v2.sh `log()`, `[<date -Iseconds>] [LEVEL] msg`) and the stream-json signal
 * context (`run_claude_cycle`). Fixtures: test/fixtures/sage/consumed.
 */
import { describe, expect, it } from 'vitest';
import { gateAnswer, lastLoggedAnswer } from '../../src/systems/sage/answer.js';
import { signalContextText } from '../../src/systems/sage/stream-json.js';
import { readFixture } from '../helpers/fixtures.js';

const LOG = readFixture('sage/consumed/.sage/logs/orchestrator-v2.log.fixture');
const at = (iso: string) => Date.parse(iso);

describe('lastLoggedAnswer', () => {
  it('finds the last "Resume status" line with its time', () => {
    expect(lastLoggedAnswer(LOG)).toEqual({
      status: 'APPROVED',
      atMs: at('2026-05-08T12:30:17Z'),
      at: '2026-05-08T12:30:17+00:00',
    });
  });

  it('takes the latest of several answers, and a read cut off after "Resume signal detected!"', () => {
    const more = `${LOG}[2026-05-08T13:10:00+00:00] [INFO] Resume signal detected!\n[2026-05-08T13:10:00+00:00] [INFO] Resume status: REVISE\n`;
    expect(lastLoggedAnswer(more)?.status).toBe('REVISE');
    const cut = `${LOG}[2026-05-08T14:00:00-02:00] [INFO] Resume signal detected!\n`;
    expect(lastLoggedAnswer(cut)).toEqual({
      status: null,
      atMs: at('2026-05-08T16:00:00Z'),
      at: '2026-05-08T14:00:00-02:00',
    });
  });

  it('ignores the wait loop, colour codes and lines that only mention an answer', () => {
    const text = [
      '[2026-05-08T12:00:00+00:00] [INFO] Entering HITL wait loop...',
      '[2026-05-08T12:00:00+00:00] [INFO] Waiting for approval... (300s elapsed, 86100s remaining)',
      'Resume status: APPROVED',
      '\u001b[0;34m[INFO]\u001b[0m Resume status: APPROVED',
    ].join('\n');
    expect(lastLoggedAnswer(text)).toBeNull();
    expect(lastLoggedAnswer('')).toBeNull();
  });
});

describe('gateAnswer', () => {
  const raised = at('2026-05-08T12:00:00Z');
  const logged = lastLoggedAnswer(LOG);

  it('an answer consumed after the signal: answered, from the log', () => {
    expect(gateAnswer(raised, null, logged)).toMatchObject({ state: 'answered', how: 'consumed', status: 'APPROVED' });
  });

  it('a newer signal than the last answer: pending again (the NEXT gate)', () => {
    expect(gateAnswer(at('2026-05-08T12:45:00Z'), null, logged)).toEqual({ state: 'pending', staleResume: null });
  });

  it('an answer logged in the same second as the signal answers it', () => {
    expect(gateAnswer(at('2026-05-08T12:30:17.800Z'), null, logged).state).toBe('answered');
    expect(gateAnswer(at('2026-05-08T12:30:18.000Z'), null, logged).state).toBe('pending');
  });

  it('an unread .resume-signal newer than the signal: answered, not yet read; an older one stays pending', () => {
    expect(gateAnswer(raised, { status: 'APPROVED', mtimeMs: raised + 5000 }, null)).toEqual({
      state: 'answered',
      how: 'unread',
      status: 'APPROVED',
      atMs: raised + 5000,
    });
    const stale = { status: 'APPROVED', mtimeMs: raised - 5000 };
    expect(gateAnswer(raised, stale, null)).toEqual({ state: 'pending', staleResume: stale });
  });
});

describe('signalContextText', () => {
  it('shows the text inside the stream-json lines, not the JSON', () => {
    const text = signalContextText(readFixture('sage/consumed/.sage/state/.last_signal_context'));
    expect(text).toBe(
      [
        'Story EPIC-9-story-2 plan is ready: refunds are prorated to the day.',
        '====',
        'SAGE_SIGNAL:HITL_REQUIRED',
        'reason: refund rules need a human decision',
        '====',
        'Waiting for human approval of the refund rules.',
      ].join('\n'),
    );
    expect(text).not.toContain('"type"');
    expect(text).not.toContain('wrote .sage/state/EPIC-9.json');
  });

  it('keeps plain-text contexts and strips escapes', () => {
    expect(signalContextText('EPIC-1 story 3: needs a decision\n\u001b[31m{not json\n')).toBe(
      'EPIC-1 story 3: needs a decision\n{not json',
    );
  });
});
