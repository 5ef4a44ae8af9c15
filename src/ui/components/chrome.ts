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
 * `tower · 6 runs · 2 need you · 1 problem · 12 allowed by rule` on the left (`tower · tmux server -L x is
 * not running · …`
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
    const whose = hostRulesWords(snapshot.hosts);
    if (whose) left.push({ text: ` · ${whose}`, tone: 'dim' });
  }
  const right: Segment[] = [
    ...(muted ? [{ text: '[muted] ', tone: 'dim' as const }] : []),
    ...(readonly ? [{ text: '[read-only] ', tone: 'amber' as const }] : []),
  ];
  const gap = width - lineWidth(left) - lineWidth(right);
  return fitLine(gap > 0 ? [...left, { text: ' '.repeat(gap) }, ...right] : [...left, { text: ' ' }, ...right], width);
}

/** Whose rules answer on each box that said so: `rules: yours on a, b; the box's on c`, or ''. */
export function hostRulesWords(hosts: Snapshot['hosts']): string {
  const on = (whose: string) =>
    (hosts ?? [])
      .filter((h) => h.rules?.whose === whose)
      .map((h) => h.name)
      .join(', ');
  const parts = [['yours', 'yours'] as const, ['box', "the box's"] as const].flatMap(([whose, words]) =>
    on(whose) ? [`${words} on ${on(whose)}`] : [],
  );
  return parts.length ? `rules: ${parts.join('; ')}` : '';
}

/** One item of the footer: its keys and what they do (`answer` marks the answer keys). */
interface FooterItem {
  keys: string;
  label: string;
  answer: boolean;
}

/** Whether a hint answers the prompt on screen (`1`…`9`, `n`): the keys for what is selected, kept longest. */
const answers = (h: Hint): boolean => h.command.startsWith('answer-');

/**
 * The footer: the keys that apply now (first key of each), dropping the least important until they
 * fit. The numbered answers share one hint (`1/2/3/4 answer`), so `n answer No` has room beside
 * them; what drops first is any other hint before help and quit, the answers last of all.
 */
export function footerLine(hints: readonly Hint[], bindings: Bindings, width: number): Segment[] {
  const key = (h: Hint) => keyLabel(bindings.keys[h.command][0] ?? '?');
  const numbered = (h: Hint) => answers(h) && h.command !== 'answer-no' && h.label === `answer ${h.command.slice(7)}`;
  // Runs of numbered answers as one item: the keys joined, one word.
  const items: FooterItem[] = [];
  for (const h of hints) {
    const last = items[items.length - 1];
    if (numbered(h) && last?.label === 'answer' && last.answer) last.keys += `/${key(h)}`;
    else items.push({ keys: key(h), label: numbered(h) ? 'answer' : h.label, answer: answers(h) });
  }
  const render = (list: readonly FooterItem[]): Segment[] =>
    list.flatMap((it, i): Segment[] => [
      { text: i === 0 ? ' ' : '  ' },
      { text: it.keys, tone: 'key' },
      { text: ` ${it.label}` },
    ]);
  const shown = [...items];
  while (shown.length > 2 && lineWidth(render(shown)) > width) {
    // Help and quit (the last two) stay while anything does; before them, the answers go last.
    const other = shown.slice(0, -2).findLastIndex((it) => !it.answer);
    shown.splice(other >= 0 ? other : shown.length - 3, 1);
  }
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
