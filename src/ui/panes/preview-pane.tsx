/**
 * The preview: the live output of one member's pane, from the same captures the activity is read
 * from. It follows new output; focused, it scrolls back (its cursor counts lines back from the bottom).
 */
import { memo, useMemo, useSyncExternalStore } from 'react';
import type { Member } from '../../model.js';
import type { PaneWatch } from '../../store/captures.js';
import { Lines } from '../components/line.js';
import type { Rect } from '../layout.js';
import { paneTextLines } from '../text/pane-text.js';
import { useTheme } from '../theme-context.js';
import { previewFrame } from './preview-lines.js';

export interface PreviewPaneProps {
  member: Member | null;
  /** Whether a run is selected at all. */
  hasRun: boolean;
  /** The run's box when it is another one. */
  host: string | null;
  watch: PaneWatch | null;
  focused: boolean;
  /** Lines scrolled back from the bottom (0 follows new output). */
  scroll: number;
  rect: Rect;
}

const noSubscribe = () => () => {};
const zero = () => 0;

/** The preview pane. */
export const PreviewPane = memo(function PreviewPane(p: PreviewPaneProps) {
  const theme = useTheme();
  const watch = p.watch;
  useSyncExternalStore(watch?.subscribe ?? noSubscribe, watch?.getVersion ?? zero);
  const look = p.member && watch ? watch.lookOf(p.member) : undefined;
  const text = look?.text ?? null;
  const lines = useMemo(() => (text === null ? null : paneTextLines(text, theme.color)), [text, theme.color]);
  const frame = previewFrame({ member: p.member, hasRun: p.hasRun, host: p.host, look, lines, focused: p.focused, scroll: p.scroll, rect: p.rect });
  return <Lines lines={frame} width={p.rect.width} />;
});
