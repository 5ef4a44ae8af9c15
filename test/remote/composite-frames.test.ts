/** How the store of every box hands changes on: at once after a quiet frame, at most once per frame in a burst. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import { CompositeStore, FRAME_MS } from '../../src/remote/composite-store.js';
import { memoryStore } from '../helpers/memory-store.js';

/** A store of this box moved by hand: each `set` is a new snapshot with runs named `names`. */
function handStore() {
  const store = memoryStore({ version: 1, generatedAt: new Date(0).toISOString(), runs: [], problems: [] });
  const set = (...names: string[]) =>
    store.set({
      ...store.getSnapshot(),
      runs: names.map((n) => emptyRun('harness', n, `/p/${n}`, `/p/${n}/.harness`)),
    });
  return { store, set };
}

describe('the store of every box', () => {
  let composite: CompositeStore;
  let hand: ReturnType<typeof handStore>;
  let published: string[][];

  beforeEach(async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance', 'Date'],
    });
    hand = handStore();
    composite = new CompositeStore({ hosts: [], local: hand.store, timeoutSec: 5, reconnect: false });
    await composite.start();
    published = [];
    composite.subscribe(() => published.push(composite.getSnapshot().runs.map((r) => r.name)));
  });

  afterEach(async () => {
    await composite.stop();
    vi.useRealTimers();
  });

  it('publishes a change after a quiet frame on the next turn of the event loop, not a frame later', () => {
    vi.advanceTimersByTime(100);
    hand.set('a');
    expect(published).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(published).toEqual([['a']]);
  });

  it('publishes a burst at most once per frame, the newest state at the frame end', () => {
    vi.advanceTimersByTime(100);
    hand.set('a');
    hand.set('b');
    vi.advanceTimersByTime(0);
    expect(published).toEqual([['b']]);
    hand.set('c');
    vi.advanceTimersByTime(5);
    hand.set('d');
    vi.advanceTimersByTime(FRAME_MS - 6);
    expect(published).toEqual([['b']]);
    vi.advanceTimersByTime(1);
    expect(published).toEqual([['b'], ['d']]);
    // Quiet again for a frame: the next change goes at once.
    vi.advanceTimersByTime(FRAME_MS);
    hand.set('e');
    vi.advanceTimersByTime(0);
    expect(published).toEqual([['b'], ['d'], ['e']]);
  });

  it('publishes nothing after stop', async () => {
    vi.advanceTimersByTime(100);
    hand.set('a');
    await composite.stop();
    vi.advanceTimersByTime(FRAME_MS * 2);
    expect(published).toEqual([]);
  });
});
