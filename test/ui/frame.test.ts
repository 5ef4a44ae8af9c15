/**
 * One frame, derived once: the screen and the keys read the same object for the same stores, the
 * view is kept while only a dialog or the size changed, and the pages the keys move by are the
 * frame's own (nothing written during a render for a later key to read).
 */
import { describe, expect, it } from 'vitest';
import { defaultBindings } from '../../src/keys/keymap.js';
import type { FrameInputs } from '../../src/ui/frame.js';
import { deriveFrame, frameDeriver } from '../../src/ui/frame.js';
import { initialUiState } from '../../src/ui/state/ui-state.js';
import { fixtureSnapshot } from './fixtures.js';

function inputs(patch: Partial<FrameInputs> = {}): FrameInputs {
  return {
    snapshot: fixtureSnapshot(),
    activity: [],
    ui: initialUiState(),
    dialog: null,
    size: { columns: 120, rows: 40 },
    bindings: defaultBindings(),
    readonly: false,
    cancellable: false,
    muted: false,
    ...patch,
  };
}

describe('the frame', () => {
  it('is the same object for the same inputs, field by field', () => {
    const frameOf = frameDeriver();
    const i = inputs();
    const first = frameOf(i);
    expect(frameOf({ ...i, size: { columns: 120, rows: 40 } })).toBe(first);
    expect(frameOf({ ...i, muted: true })).not.toBe(first);
  });

  it('keeps the view when only the dialog or the size changed, and derives it again for a new snapshot', () => {
    const frameOf = frameDeriver();
    const i = inputs();
    const first = frameOf(i);
    const dialog = { kind: 'refusal' as const, title: 'no', reason: 'because' };
    const withDialog = frameOf({ ...i, dialog });
    expect(withDialog.view).toBe(first.view);
    expect(withDialog.dialogBox).not.toBeNull();
    expect(frameOf({ ...i, size: { columns: 80, rows: 24 } }).view).toBe(first.view);
    expect(frameOf({ ...i, snapshot: fixtureSnapshot() }).view).not.toBe(first.view);
  });

  it('pages as the layout it was drawn with: a taller terminal pages further', () => {
    const short = deriveFrame(inputs({ size: { columns: 120, rows: 30 } }));
    const tall = deriveFrame(inputs({ size: { columns: 120, rows: 60 } }));
    expect(tall.metrics.page.tasks).toBeGreaterThan(short.metrics.page.tasks);
    expect(tall.layout.kind).toBe('wide');
    expect(deriveFrame(inputs({ size: { columns: 80, rows: 24 } })).layout.kind).toBe('narrow');
  });
});
