/** The detail panes of the selected run, each in its frame. Only the gates pane follows the clock. */
import { memo, useMemo } from 'react';
import type { Member, Run, Snapshot } from '../../model.js';
import type { PaneWatch } from '../../store/captures.js';
import type { ActivityEntry } from '../../store/types.js';
import { frameLines } from '../components/frame.js';
import { Lines } from '../components/line.js';
import { useClock } from '../hooks/use-clock.js';
import type { Rect } from '../layout.js';
import type { DetailPane } from '../state/ui-state.js';
import type { Segment } from '../text/segments.js';
import { activityLines } from './activity-pane.js';
import { gatesLines } from './gates-pane.js';
import { paneTitle } from './pane-title.js';
import { problemsLines } from './problems-pane.js';
import { reviewsLines } from './reviews-pane.js';
import { taskStats, tasksLines } from './tasks-pane.js';
import { PreviewPane } from './preview-pane.js';
import { teamLines } from './team-pane.js';

export { paneTitle } from './pane-title.js';

/** What a detail pane draws. */
export interface DetailPaneProps {
  pane: DetailPane;
  rect: Rect;
  focused: boolean;
  run: Run | null;
  snapshot: Snapshot;
  activity: readonly ActivityEntry[];
  cursor: number;
  /** Pane captures for the preview (null: none here). */
  watch?: PaneWatch | null | undefined;
  /** Whose pane the preview shows. */
  previewMember?: Member | null | undefined;
  /** Context threshold for runs that name none (config contextThresholdPct). */
  contextThreshold?: number | undefined;
}

function Framed({ title, focused, rect, content }: { title: string; focused: boolean; rect: Rect; content: Segment[][] }) {
  return <Lines lines={frameLines(title, focused, rect, content)} width={rect.width} />;
}

/** Ages under two minutes count seconds; older ones only minutes, so the clock redraws less. */
function ageResolution(run: Run | null, now: number): number {
  const young = run?.gates.some((g) => g.since && now - Date.parse(g.since) < 120_000);
  return young ? 1000 : 60_000;
}

const GatesPane = memo(function GatesPane(p: DetailPaneProps) {
  const coarse = useClock(60_000);
  const now = useClock(ageResolution(p.run, coarse));
  const content = gatesLines(p.run, p.cursor, p.focused, p.rect.width - 2, p.rect.height - 2, now);
  return <Framed title={paneTitle('gates', p.run, p.snapshot, p.activity)} focused={p.focused} rect={p.rect} content={content} />;
});

const TasksPane = memo(function TasksPane(p: DetailPaneProps) {
  // Counting 10,000 tasks on every keypress would be wasted: the run object only changes when its files do.
  const stats = useMemo(() => taskStats(p.run), [p.run]);
  const content = tasksLines(p.run, stats, p.cursor, p.focused, p.rect.width - 2, p.rect.height - 2);
  return <Framed title={paneTitle('tasks', p.run, p.snapshot, p.activity)} focused={p.focused} rect={p.rect} content={content} />;
});

const TeamPane = memo(function TeamPane(p: DetailPaneProps) {
  // Time in each member's state moves with the clock; ten seconds is fine enough for it.
  const now = useClock(10_000);
  const content = teamLines(p.run, p.cursor, p.focused, p.rect.width - 2, p.rect.height - 2, now, p.contextThreshold ?? null);
  return <Framed title={paneTitle('team', p.run, p.snapshot, p.activity)} focused={p.focused} rect={p.rect} content={content} />;
});

const PlainPane = memo(function PlainPane(p: DetailPaneProps) {
  const w = p.rect.width - 2;
  const h = p.rect.height - 2;
  let content: Segment[][] = [];
  if (p.pane === 'reviews') content = reviewsLines(p.run, p.cursor, p.focused, w, h);
  else if (p.pane === 'problems') content = problemsLines(p.run, p.snapshot, p.cursor, p.focused, w, h);
  else if (p.pane === 'activity') content = activityLines(p.activity, p.cursor, p.focused, h);
  return <Framed title={paneTitle(p.pane, p.run, p.snapshot, p.activity)} focused={p.focused} rect={p.rect} content={content} />;
});

/** One detail pane in its frame. */
export function DetailPaneView(p: DetailPaneProps) {
  if (p.pane === 'gates') return <GatesPane {...p} />;
  if (p.pane === 'tasks') return <TasksPane {...p} />;
  if (p.pane === 'team') return <TeamPane {...p} />;
  if (p.pane === 'preview') {
    // Pane ids of another box name panes of its tmux server, not of this one: never preview them from here.
    return <PreviewPane member={p.previewMember ?? null} hasRun={p.run !== null} host={p.run?.host ?? null} watch={p.run?.host ? null : (p.watch ?? null)} focused={p.focused} scroll={p.cursor} rect={p.rect} />;
  }
  return <PlainPane {...p} />;
}
