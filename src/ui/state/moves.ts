/** Cursor movement in a list, pure: what up, down, a page, first and last do to an index. */
import type { Command } from '../../keys/keymap.js';

/** A list's cursor, its length and how many rows a page holds. */
export interface ListState {
  index: number;
  count: number;
  page: number;
}

/** The new cursor for a movement command, or null when the command does not move. */
export function moveIndex(command: Command, list: ListState): number | null {
  const last = Math.max(0, list.count - 1);
  const page = Math.max(1, list.page);
  switch (command) {
    case 'up':
      return Math.max(0, list.index - 1);
    case 'down':
      return Math.min(last, list.index + 1);
    case 'page-up':
      return Math.max(0, list.index - page);
    case 'page-down':
      return Math.min(last, list.index + page);
    case 'first':
      return 0;
    case 'last':
      return last;
    default:
      return null;
  }
}

/** Commands that move a cursor. */
export const MOVES = ['up', 'down', 'page-up', 'page-down', 'first', 'last'] as const;
export type Move = (typeof MOVES)[number];

/** Whether a command moves a cursor. */
export function isMove(command: Command): command is Move {
  return (MOVES as readonly string[]).includes(command);
}

/** The preview's scroll (lines back from the bottom, 0 = following) after a move; `max` is how far back it goes. */
export function scrollBack(move: Move, back: number, max: number, page: number): number {
  const p = Math.max(1, page);
  const to = { up: back + 1, down: back - 1, 'page-up': back + p, 'page-down': back - p, first: max, last: 0 }[move];
  return Math.max(0, Math.min(max, to));
}
