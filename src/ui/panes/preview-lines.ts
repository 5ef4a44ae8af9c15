/** The preview pane's title and lines for a member and what tower last captured of its pane. Pure. */
import type { Member, Run } from '../../model/model.js';
import type { PaneLook } from '../../store/captures.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { frameLines } from '../components/frame.js';
import { paneTextLines } from '../text/pane-text.js';
import type { Segment } from '../text/segments.js';
import { wrapText } from '../text/width.js';
import { activityWord } from './activity-words.js';
import { isMove, scrollBack } from '../state/moves.js';
import { previewMember } from '../state/selectors.js';
import type { PaneSpec } from './pane-spec.js';
import { SYSTEM_BADGE } from './words.js';

/** The visible window of a capture: `height` lines ending `scroll` lines above the bottom (clamped). */
export function previewWindow(
  lines: readonly Segment[][],
  height: number,
  scroll: number,
  ask: number | null = null,
): { shown: Segment[][]; scroll: number } {
  const max = Math.max(0, lines.length - height);
  const back = Math.min(Math.max(0, scroll), max);
  // A prompt taller than the pane from its question down shows from its question: the question and
  // its options stay in view, what follows them (its key hints) is what gives way.
  if (back === 0 && ask !== null && ask >= 0 && lines.length - ask > height)
    return { shown: lines.slice(ask, ask + height), scroll: lines.length - ask - height };
  const end = lines.length - back;
  return { shown: lines.slice(Math.max(0, end - height), end), scroll: back };
}

/** The line the prompt's question is on, the last such line of the capture (null: no prompt, or not found). */
export function questionLine(lines: readonly Segment[][], question: string | undefined): number | null {
  const want = question?.trim();
  if (!want) return null;
  for (let i = lines.length - 1; i >= 0; i--)
    if (
      (lines[i] ?? [])
        .map((s) => s.text)
        .join('')
        .includes(want)
    )
      return i;
  return null;
}

function note(text: string): Segment[][] {
  return [[{ text: `  ${text}`, tone: 'dim' }]];
}

/** A compact count: 1234 → `1.2k`, 200000 → `200k`, 1500000 → `1.5M`. */
export function compactCount(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${n < 10_000 ? (n / 1000).toFixed(1).replace(/\.0$/, '') : Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** The member's context and tokens for the preview's title: ` · context 72% of 200k · 1.2M in 40k out`. */
export function contextNote(m: Member): string {
  const parts: string[] = [];
  if (m.context && Number.isFinite(m.context.usedPct))
    parts.push(
      `context ${Math.max(0, Math.min(100, Math.round(m.context.usedPct)))}% of ${compactCount(m.context.window)}`,
    );
  if (m.tokens)
    parts.push(
      `${compactCount(m.tokens.input + m.tokens.cacheRead + m.tokens.cacheWrite)} in ` +
        `${compactCount(m.tokens.output)} out`,
    );
  return parts.map((t) => ` · ${t}`).join('');
}

/** What the preview shows. `lines` are the capture's lines (already made safe), null before the first capture. */
export interface PreviewProps {
  member: Member | null;
  hasRun: boolean;
  /** Where tower looked for the run's panes, said when no member has one (`noPaneNote`). */
  noPane?: string | undefined;
  /** The box the run lives on when it is another one (its pane is what that box streams). */
  host?: string | null | undefined;
  /** Why that box cannot stream its panes here (an older tower there), or null. */
  hostNote?: string | null | undefined;
  look: PaneLook | undefined;
  lines: readonly Segment[][] | null;
  focused: boolean;
  scroll: number;
  /** The pane's cells, its frame included. */
  width: number;
  height: number;
}

/** A capture's text as the preview's lines (null before the first capture). */
export function captureLines({ text, color }: { text: string | null; color: boolean }): Segment[][] | null {
  return text === null ? null : paneTextLines(text, color);
}

/** What the preview says of a run none of whose members has a pane: where tower looked for one. */
export function noPaneNote(run: Run): string {
  const badge = SYSTEM_BADGE[run.system];
  if (run.members.length > 0)
    return (
      `no member of this run has a tmux pane: ` +
      `${run.members.length === 1 ? 'its one member has' : `its ${run.members.length} members have`} ` +
      `none in the team files`
    );
  const where = run.stateDir ?? run.root;
  // The panes that work in the run's folder are its seats (store/folder-panes.ts): none did.
  return (
    `no member of this run has a tmux pane: ${badge} names no agent or pane in its ` +
    `files${where ? ` (tower read ${sanitizeLine(where)})` : ''}` +
    (run.root ? `, and no pane of tower's tmux server works in ${sanitizeLine(run.root)}` : '')
  );
}

/** The preview pane in its frame. */
export function previewFrame(p: PreviewProps): Segment[][] {
  const height = Math.max(0, p.height - 2);
  let content: Segment[][];
  let where = '';
  const m = p.member;
  if (!p.hasRun) content = note('no run selected');
  else if (!m || !m.paneId)
    // Where tower looked can be long (a path): it wraps rather than being cut.
    content = wrapText(p.noPane || 'no member of this run has a tmux pane', Math.max(10, p.width - 4)).map((t) => [
      { text: `  ${t}`, tone: 'dim' as const },
    ]);
  else if (m.state === 'dead') content = note(`${sanitizeLine(m.name)}'s pane ${sanitizeLine(m.paneId)} is dead`);
  else if (m.state === 'not-its-pane')
    content = note(
      `${sanitizeLine(m.paneId)} is not ${sanitizeLine(m.name)}'s pane: ${sanitizeLine(m.notItsPane ?? '')}`,
    );
  else if (p.host && p.hostNote) content = note(sanitizeLine(p.hostNote));
  else if (p.host && (!p.look || !p.lines)) content = note(`waiting for ${sanitizeLine(p.host)} to send its pane…`);
  else if ((!p.look || !p.lines) && m.state === 'unknown')
    content = note(
      `${sanitizeLine(m.name)}'s pane ${sanitizeLine(m.paneId)} is unknown now (its tmux server does not say)`,
    );
  else if (!p.look || !p.lines) content = note('waiting for the first capture of its pane…');
  else {
    const win = previewWindow(p.lines, height, p.scroll, questionLine(p.lines, p.look.prompt?.question));
    content = win.shown;
    // A capture of a pane whose liveness is unknown now (its server is not running) is not live.
    const stale = !p.host && m.state !== 'alive';
    where = `${win.scroll > 0 ? ` · ${win.scroll} lines back` : stale ? '' : ' · live'}${stale ? ' · stale: its pane is unknown now' : ''}`;
  }
  const on = [m?.tmuxServer, p.host].filter((x): x is string => Boolean(x)).map(sanitizeLine);
  const who = m
    ? ` · ${sanitizeLine(m.name)}${m.paneId ? ` ${sanitizeLine(m.paneId)}${on.length ? ` on ${on.join(' on ')}` : ''}` : ''}`
    : '';
  const doing = m?.activity && m.activity !== 'unknown' ? ` · ${activityWord(m)}` : '';
  return frameLines(
    `Preview${who}${doing}${m ? contextNote(m) : ''}${where}`,
    p.focused,
    { width: p.width, height: p.height },
    content,
  );
}

/**
 * The live preview of a member's pane (the selected one, else the lead's). Its cursor is how many
 * lines it is scrolled back from the bottom (0 follows new output), bounded by its capture.
 */
export const previewPane: PaneSpec<'preview'> = {
  id: 'preview',
  title: () => 'Preview',
  rows: () => Number.MAX_SAFE_INTEGER,
  wants: () => 12,
  topLines: 0,
  // The preview takes what the right column has left.
  slot: { column: 1, min: 4, ask: () => 4, grow: true },
  key: (command, k) => {
    if (!isMove(command)) return null;
    const max = Math.max(0, k.lines - k.page);
    return scrollBack(command, Math.min(k.cursor, max), max, k.page);
  },
  draw: (c) => {
    const member = previewMember(c.run, c.member, c.focus);
    // A pane of another box is what that box streams of it, never a pane of this one's server.
    const look = member ? c.look?.(member, c.run) : undefined;
    const hostNote = c.run?.host ? (c.previewNote?.(c.run) ?? null) : null;
    const lines = c.memo.draw('preview:text', captureLines, { text: look?.text ?? null, color: c.color });
    return c.memo.draw('preview', previewFrame, {
      member,
      hasRun: c.run !== null,
      noPane: c.run ? noPaneNote(c.run) : undefined,
      host: c.run?.host ?? null,
      hostNote,
      look,
      lines,
      focused: c.focused,
      scroll: c.cursor,
      width: c.rect.width,
      height: c.rect.height,
    });
  },
};
