/**
 * Claude Code's reading and typing, as tower has always done them: the screen readers of the store
 * (store/pane-reading.ts, store/prompt-reading.ts, in this layer), the transcript's usage, the
 * digit-then-carriage-return way of typing that lands in 2.1.332.
 */
import { notAtInput } from '../../store/input-box.js';
import { readPane } from '../../store/pane-reading.js';
import { dialogGone, optionFor, readPrompt } from '../../store/prompt-reading.js';
import { transcriptUsage } from './files.js';
import type { AgentWays } from '../types.js';
import { claudeCodeKeys } from './keys.js';

export const claudeCodeWays: AgentWays = {
  screen: { read: readPane, prompt: readPrompt, gone: dialogGone, option: optionFor, atInput: notAtInput },
  typing: claudeCodeKeys,
  usage(file) {
    const u = transcriptUsage(file);
    return u ? { usedPct: u.usedPct, used: u.used, window: u.window, tokens: u.tokens } : null;
  },
};
