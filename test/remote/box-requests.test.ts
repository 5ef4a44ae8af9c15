/**
 * The requests a link has sent its box and not had answered: a run the box was sent and then went
 * silent about, or whose connection ended, is "not known whether it was done", never failed; a plan
 * or a dry run, which does nothing on the box, fails as before; nothing is written to the box again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoxRequests, RUN_SILENCE_SEC } from '../../src/remote/box-requests.js';
import type { ActionRequest } from '../../src/kit/types.js';
import type { ClientMessage } from '../../src/remote/protocol.js';

afterEach(() => vi.useRealTimers());

function requests(): { box: BoxRequests; written: ClientMessage[] } {
  const written: ClientMessage[] = [];
  const box = new BoxRequests({
    name: 'q',
    timeoutSec: 5,
    unavailable: () => null,
    write: (msg) => {
      written.push(msg);
      return true;
    },
    problem: () => {},
  });
  return { box, written };
}

const answer: ActionRequest = { kind: 'answer', run: 'claude-team:crew', members: ['lead'], choice: '1' };

describe('a run whose box goes silent or away', () => {
  it('ends not known when the connection is lost after it was sent, and is not sent again', async () => {
    const { box, written } = requests();
    const run = box.run(answer, false, {});
    box.failAll('the ssh connection to box-q was lost (Connection reset)');
    await expect(run).resolves.toEqual({
      status: 'timeout',
      message:
        'not known whether answer was done on q: it was sent, then the connection was lost before it said ' +
        'how it went (the ssh connection to box-q was lost (Connection reset)); look there before doing it again',
    });
    expect(written.map((m) => m.type)).toEqual(['run']);
  });

  it(`ends not known when the box says nothing about it for ${RUN_SILENCE_SEC} s`, async () => {
    vi.useFakeTimers();
    const { box, written } = requests();
    const run = box.run(answer, false, {});
    await vi.advanceTimersByTimeAsync(RUN_SILENCE_SEC * 1000);
    await expect(run).resolves.toMatchObject({
      status: 'timeout',
      message: expect.stringMatching(/^not known whether answer was done on q: it was sent, then q said nothing/),
    });
    expect(written.map((m) => m.type)).toEqual(['run']);
  });

  it('fails a plan and a dry run, which do nothing on the box', async () => {
    const { box } = requests();
    const plan = box.plan(answer, false);
    const dry = box.run(answer, true, {});
    box.failAll('the ssh connection to box-q was lost');
    await expect(plan).rejects.toThrow('q: the ssh connection to box-q was lost');
    await expect(dry).rejects.toThrow('q: the ssh connection to box-q was lost');
  });

  it('takes the outcome the box sends, once', async () => {
    const { box } = requests();
    const run = box.run(answer, false, {});
    box.received({ type: 'outcome', id: 1, outcome: { status: 'done', message: 'answered 1 (Yes) to lead' } });
    box.failAll('the ssh connection to box-q was lost');
    await expect(run).resolves.toEqual({ status: 'done', message: 'answered 1 (Yes) to lead' });
  });
});
