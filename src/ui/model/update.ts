/**
 * update(model, message) → the next model and the effects to run: the one place the control
 * room's state changes. Pure; the frame a key acts on comes from `frameOf`, the same deriver the
 * screen draws with, so a key moves by the pages the frame on screen has.
 */
import { gatesResolution, teamResolution } from '../screen-blocks.js';
import { visibleRuns } from '../state/selectors.js';
import { uiReducer } from '../state/ui-state.js';
import { pressKey } from './keys.js';
import type { FrameOf, Message, Model } from './model.js';
import { modelFrames } from './model.js';
import type { Next } from './step.js';
import { Step } from './step.js';
import { TICK_MS } from './tick.js';

/** Applies one message. */
export function update(model: Model, message: Message, frameOf: FrameOf = modelFrames()): Next {
  const s = new Step(model);
  switch (message.type) {
    case 'key':
      pressKey(s, message.key, message.raw, frameOf);
      break;
    case 'snapshot':
      if (message.snapshot !== model.snapshot) s.model = holdFirstRun({ ...model, snapshot: message.snapshot });
      break;
    case 'activity':
      if (message.activity !== model.activity) s.model = { ...model, activity: message.activity };
      break;
    case 'resize':
      if (message.size.columns !== model.size.columns || message.size.rows !== model.size.rows)
        s.model = { ...model, size: message.size };
      break;
    case 'session':
      if (message.session !== model.session) s.model = { ...model, session: message.session };
      break;
    case 'capture':
      if (message.lines !== model.previewLines) s.model = { ...model, previewLines: message.lines };
      break;
    case 'cancellable':
      if (message.cancellable !== model.cancellable) s.model = { ...model, cancellable: message.cancellable };
      break;
    case 'tick':
      tick(s, message.now, frameOf);
      break;
    case 'dialog':
      s.dialog(message.action);
      break;
    case 'name-checked':
      nameChecked(s, message.problem);
      break;
  }
  return s.done();
}

/**
 * Selects the first run shown while none is selected; only the operator's keys move it after, so a
 * run that grows urgent and moves to the top does not take the cursor from the one it is on.
 */
export function holdFirstRun(model: Model): Model {
  if (model.ui.selectedRunId !== null) return model;
  const first = visibleRuns(model.snapshot.runs, model.ui.filter, model.ui.showEnded)[0];
  return first ? { ...model, ui: uiReducer(model.ui, { type: 'select-run', id: first.id }) } : model;
}

/** The request's name was checked as the operator left it: say why not, or move on to the message. */
function nameChecked(s: Step, problem: string | null): void {
  const d = s.model.dialogs.current;
  if (d?.kind !== 'request' || d.field !== 'name') return;
  s.dialog(problem ? { type: 'name-problem', problem } : { type: 'next-field' });
}

/**
 * The clock moved: the model keeps the time rounded to the finest age the frame shows (the gates'
 * and the team's), so only a tick that moves a shown age changes it; the next tick is asked for.
 */
function tick(s: Step, now: number, frameOf: FrameOf): void {
  const run = frameOf(s.model).view.run;
  const coarse = Math.floor(now / 60_000) * 60_000;
  const step = Math.min(gatesResolution(run, coarse), teamResolution(run, coarse));
  const shown = Math.floor(now / step) * step;
  if (shown !== s.model.now) s.model = { ...s.model, now: shown };
  s.effect({ kind: 'tick-after', ms: TICK_MS });
}
