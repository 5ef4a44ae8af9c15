/**
 * The preview: the live output of one member's pane, from the same captures the activity is read
 * from. It follows new output; focused, it scrolls back (its cursor counts lines back from the bottom).
 */
import { memo, useMemo, useSyncExternalStore } from 'react';
import type { Member } from '../../model.js';
import type { PaneWatch } from '../../store/captures.js';
import { sanitizeLine } from '../../text.js';
import { frameLines } from '../components/frame.js';
import { Lines } from '../components/line.js';
import type { Rect } from '../layout.js';
import { paneTextLines } from '../text/pane-text.js';
import type { Segment } from '../text/segments.js';
import { useTheme } from '../theme.js';
import { activityWord } from './activity-words.js';

export interface PreviewPaneProps {
  member: Member | null;
  /** Whether a run is selected at all. */
  hasRun: boolean;
  watch: PaneWatch | null;
  focused: boolean;
  /** Lines scrolled back from the bottom (0 follows new output). */
  scroll: number;
  rect: Rect;
}

/** The visible window of a capture: `height` lines ending `scroll` lines above the bottom (clamped). */
export function previewWindow(lines: readonly Segment[][], height: number, scroll: number): { shown: Segment[][]; scroll: number } {
  const max = Math.max(0, lines.length - height);
  const back = Math.min(Math.max(0, scroll), max);
  const end = lines.length - back;
  return { shown: lines.slice(Math.max(0, end - height), end), scroll: back };
}

function note(text: string): Segment[][] {
  return [[{ text: `  ${text}`, tone: 'dim' }]];
}

/** The preview pane. */
export const PreviewPane = memo(function PreviewPane(p: PreviewPaneProps) {
  const theme = useTheme();
  const watch = p.watch;
  useSyncExternalStore(watch?.subscribe ?? noSubscribe, watch?.getVersion ?? zero);
  const look = p.member?.paneId && watch ? watch.look(p.member.paneId) : undefined;
  const text = look?.text ?? null;
  const lines = useMemo(() => (text === null ? [] : paneTextLines(text, theme.color)), [text, theme.color]);
  const height = Math.max(0, p.rect.height - 2);
  let content: Segment[][];
  let where = '';
  const m = p.member;
  if (!p.hasRun) content = note('no run selected');
  else if (!m || !m.paneId) content = note('no member of this run has a tmux pane');
  else if (m.state === 'dead') content = note(`${sanitizeLine(m.name)}'s pane ${sanitizeLine(m.paneId)} is dead`);
  else if (!watch) content = note('pane output is not captured here');
  else if (!look) content = note('waiting for the first capture…');
  else {
    const win = previewWindow(lines, height, p.scroll);
    content = win.shown;
    where = win.scroll > 0 ? ` · ${win.scroll} lines back` : ' · live';
  }
  const who = m ? ` · ${sanitizeLine(m.name)}${m.paneId ? ` ${sanitizeLine(m.paneId)}` : ''}` : '';
  const doing = m?.activity && m.activity !== 'unknown' ? ` · ${activityWord(m)}` : '';
  return <Lines lines={frameLines(`Preview${who}${doing}${where}`, p.focused, p.rect, content)} width={p.rect.width} />;
});

const noSubscribe = () => () => {};
const zero = () => 0;
