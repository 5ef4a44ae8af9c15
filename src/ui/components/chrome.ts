/** The header, footer and tab bar lines. Pure. */
import type { Snapshot } from '../../model/model.js';
import type { Bindings } from '../../keys/keymap.js';
import { keyLabel } from '../../keys/key-name.js';
import type { Hint } from '../state/available.js';
import { countNeedingYou } from '../../store/needs-you.js';
import { tmuxDownLine } from '../../store/tmux-down.js';
import type { Segment } from '../text/segments.js';
import { fitLine, lineWidth } from '../text/segments.js';
import { RunTally } from '../state/tally.js';

const runProblems = new RunTally((r) => r.problems.length);

/** What the header draws. */
export interface HeaderProps {
  snapshot: Snapshot;
  width: number;
  readonly: boolean;
  /** The first snapshot is still being read. */
  loading: boolean;
  /** Notifications are muted. */
  muted: boolean;
  /** What rules answered for the operator (`12 allowed by rule`), or ''. */
  byRule?: string;
}

/**
 * `tower · 6 runs · 2 need you · 1 problem · 12 allowed by rule` on the left (`tower · tmux server -L x is not running · …`
 * when it is not), `[read-only]` on the right.
 */
export function headerLine({ snapshot, width, readonly, loading, muted, byRule }: HeaderProps): Segment[] {
  const needYou = countNeedingYou(snapshot);
  const problems = snapshot.problems.length + runProblems.sum(snapshot.runs);
  const left: Segment[] = [{ text: ' tower', tone: 'accent' }];
  // Said first: with the server down every member's pane is unknown, and nothing on screen is live.
  const down = loading ? null : tmuxDownLine(snapshot);
  if (down) left.push({ text: ` · ${down}`, tone: 'red' });
  if (loading) left.push({ text: ' · reading state…', tone: 'dim' });
  else {
    left.push({ text: ` · ${snapshot.runs.length} run${snapshot.runs.length === 1 ? '' : 's'}` });
    if (needYou > 0) left.push({ text: ` · ${needYou} need${needYou === 1 ? 's' : ''} you`, tone: 'amber' });
    if (problems > 0) left.push({ text: ` · ${problems} problem${problems === 1 ? '' : 's'}`, tone: 'red' });
    if (byRule) left.push({ text: ` · ${byRule}`, tone: 'dim' });
  }
  const right: Segment[] = [
    ...(muted ? [{ text: '[muted] ', tone: 'dim' as const }] : []),
    ...(readonly ? [{ text: '[read-only] ', tone: 'amber' as const }] : []),
  ];
  const gap = width - lineWidth(left) - lineWidth(right);
  return fitLine(gap > 0 ? [...left, { text: ' '.repeat(gap) }, ...right] : [...left, { text: ' ' }, ...right], width);
}

/** The footer: the keys that apply now (first key of each), dropping the least important until they fit. */
export function footerLine(hints: readonly Hint[], bindings: Bindings, width: number): Segment[] {
  const render = (hs: readonly Hint[]): Segment[] =>
    hs.flatMap((h, i): Segment[] => [
      { text: i === 0 ? ' ' : '  ' },
      { text: keyLabel(bindings.keys[h.command][0] ?? '?'), tone: 'key' },
      { text: ` ${h.label}` },
    ]);
  const shown = [...hints];
  // Drop from just before the last two (help and quit stay while anything does).
  while (shown.length > 2 && lineWidth(render(shown)) > width) shown.splice(shown.length - 3, 1);
  return fitLine(render(shown), width);
}

/** The narrow layout's tab bar: every detail pane, the shown one in brackets. */
export function tabBarLine(
  tabs: readonly { pane: string; label: string }[],
  shown: string,
  focused: boolean,
  width: number,
): Segment[] {
  const parts: Segment[] = [{ text: ' ' }];
  tabs.forEach((t, i) => {
    if (i > 0) parts.push({ text: ' │ ', tone: 'dim' });
    if (t.pane === shown)
      parts.push({ text: `[${focused ? '> ' : ''}${t.label}]`, tone: focused ? 'accent' : 'title' });
    else parts.push({ text: t.label, tone: 'dim' });
  });
  return fitLine(parts, width);
}
