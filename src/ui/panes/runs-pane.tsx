/** The runs list: system, name, status, phase, pending gates and the context gauge, one run a row. */
import { memo } from 'react';
import { Lines } from '../components/line.js';
import type { RunsPaneProps } from './runs-lines.js';
import { runsPaneLines } from './runs-lines.js';

export type { RunsPaneProps } from './runs-lines.js';
export { runLabel, runNote, runsLines } from './runs-lines.js';

/** The runs list pane. */
export const RunsPane = memo(function RunsPane(p: RunsPaneProps) {
  return <Lines lines={runsPaneLines(p)} width={p.rect.width} />;
});
