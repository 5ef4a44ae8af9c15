/**
 * What a member is doing, in words and symbols that say it without colour too: `▶ working`,
 * `? question` (`? 2 held`: requests held for its pane), `… waiting`, `· idle`, with the time in that state.
 */
import type { Member } from '../../model/model.js';
import { memberWaitsForHuman } from '../../store/needs-you.js';
import type { Cell } from '../components/table.js';
import { age } from '../text/format.js';

export { activityWord } from '../../store/needs-you.js';

/** Whether this member waits for a human: a lead at its prompt, or anyone at a question. */
export const waitsForHuman = memberWaitsForHuman;

/**
 * Which CLI the member runs, when it is not Claude Code (tower's first, unmarked): ` · codex`, or
 * ` · CLI unknown` for a pane tower cannot read but by its screen.
 */
function agentWord(m: Member): string {
  if (!m.agent || m.agent === 'claude-code') return '';
  return m.agent === 'unknown' ? ' · CLI unknown' : ` · ${m.agent}`;
}

/** The team pane's activity cell: symbol, word and time in that state. */
export function activityCell(m: Member, now: number): Cell {
  if (m.state === 'dead') return { text: '' };
  // `h` marks a state Claude Code's hooks reported (exact); without it, it was read from the screen.
  const since = `${m.activitySince ? ` ${age(m.activitySince, now)}` : ''}${m.activitySource === 'hooks' ? ' h' : ''}${agentWord(m)}`;
  switch (m.activity) {
    case 'working':
      return { text: `▶ working${since}`, tone: 'green' };
    case 'waiting':
      // Requests held for the pane, each answered by itself: how many, so a second is never missed.
      if ((m.held?.length ?? 0) > 1) return { text: `? ${m.held!.length} held${since}`, tone: 'amber' };
      return m.activityCue === 'question'
        ? { text: `? question${since}`, tone: 'amber' }
        : { text: `… waiting${since}`, tone: m.lead ? 'amber' : 'plain' };
    case 'idle':
      return { text: `· idle${since}`, tone: 'dim' };
    default:
      return { text: '', tone: 'dim' };
  }
}
