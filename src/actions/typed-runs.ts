/**
 * The runs that type into an agent's pane (an answer, a line), loaded together the first time one
 * runs: one chunk off every start path.
 */
export { runAnswer } from './answer-run.js';
export { runSend } from './send-run.js';
