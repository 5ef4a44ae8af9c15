/**
 * A run of another box is planned on that box. While its plan is on the way the activity pane says
 * so, and pressing the key again asks nothing more; a box's pane is previewed as that box sends it.
 */
import { describe, expect, it } from 'vitest';
import { ActivityStore } from '../../src/kit/activity.js';
import type { ActionOutcome, ActionPlan, ActionRequest } from '../../src/kit/types.js';
import type { ControlRoomActions } from '../../src/ui/actions-port.js';
import { ActionRunner } from '../../src/ui/model/action-runner.js';
import { previewFrame } from '../../src/ui/panes/preview-lines.js';
import type { DialogAction } from '../../src/ui/state/dialog-state.js';
import { NO_DIALOG, dialogReducer } from '../../src/ui/state/dialog-state.js';
import { member } from './fixtures.js';

/** Actions whose plans come from a box that answers only when told to. */
class SlowBox implements ControlRoomActions {
  asked: ActionRequest[] = [];
  private answers: ((p: ActionPlan) => void)[] = [];
  plan(req: ActionRequest): Promise<ActionPlan> {
    this.asked.push(req);
    return new Promise((resolve) => this.answers.push(resolve));
  }
  answer(): void {
    const req = this.asked[this.answers.length - 1]!;
    this.answers.shift()?.({
      request: req,
      run: null,
      title: `grant ${req.run}`,
      effects: [],
      refusal: null,
      destructive: true,
    });
  }
  async run(): Promise<ActionOutcome> {
    return { status: 'done', message: 'done' };
  }
  async attach(): Promise<ActionOutcome> {
    return { status: 'done', message: 'done' };
  }
}

describe('plans from another box', () => {
  it('says it is asking, and a second press while it waits asks nothing more', async () => {
    const box = new SlowBox();
    const activity = new ActivityStore();
    let shown = NO_DIALOG;
    const dialogs = { dispatch: (a: DialogAction) => (shown = dialogReducer(shown, a)) };
    const runner = new ActionRunner({ actions: box, activity, dialogs, readonly: false });
    const req: ActionRequest = { kind: 'grant', run: 'far/harness:shop', gate: 'deploy' };
    runner.ask(req);
    runner.ask(req);
    runner.ask(req);
    expect(box.asked).toHaveLength(1);
    expect(activity.getSnapshot().map((e) => e.message)).toEqual(["asking the run's box for the plan of grant…"]);
    box.answer();
    await new Promise((r) => setTimeout(r, 0));
    expect(shown.current?.kind).toBe('confirm');
    expect(activity.getSnapshot()[0]?.status).toBe('done');
    // Answered: the next press asks again.
    runner.ask(req);
    expect(box.asked).toHaveLength(2);
  });

  it('the preview of a member on another box waits for that box, or says why the box cannot stream it', () => {
    const m = member('lead', { paneId: '%1', state: 'alive', lead: true });
    const frame = (hostNote: string | null) =>
      previewFrame({
        member: m,
        hasRun: true,
        host: 'far',
        hostNote,
        look: undefined,
        lines: null,
        focused: false,
        scroll: 0,
        width: 90,
        height: 6,
      })
        .map((l) => l.map((s) => s.text).join(''))
        .join('\n');
    expect(frame(null)).toContain('waiting for far to send its pane');
    expect(frame(null)).toContain('lead %1 on far');
    expect(frame(null)).not.toContain('waiting for the first capture');
    expect(frame('far runs an older tower')).toContain('far runs an older tower');
  });
});
