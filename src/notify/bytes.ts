/**
 * The exact bytes each terminal channel writes. Inside tmux a desktop notification is wrapped for
 * passthrough (`ESC P tmux; …  ESC \`, every ESC inside doubled) so it reaches the operator's own
 * terminal, over ssh too; the title (OSC 2) is not wrapped: tmux keeps it as the pane title. Pure.
 */
import { sanitizeLine } from '../text/sanitize.js';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** Text fit to go inside an OSC string: no controls, no `;` where the sequence splits on it. */
function oscText(text: string, semicolons = true): string {
  const clean = sanitizeLine(text);
  return semicolons ? clean : clean.replace(/;/g, ',');
}

/** The terminal bell. */
export function bellBytes(): string {
  return BEL;
}

/** Wraps a sequence for tmux passthrough. */
export function tmuxPassthrough(seq: string): string {
  return `${ESC}Ptmux;${seq.split(ESC).join(ESC + ESC)}${ST}`;
}

/** A desktop notification: OSC 9 (`ESC ] 9 ; body BEL`) or OSC 777 (`ESC ] 777 ; notify ; title ; body BEL`). */
export function desktopBytes(kind: 'osc9' | 'osc777', title: string, body: string, inTmux: boolean): string {
  const seq =
    kind === 'osc9'
      ? `${ESC}]9;${oscText(`${title}: ${body}`)}${BEL}`
      : `${ESC}]777;notify;${oscText(title, false)};${oscText(body, false)}${BEL}`;
  return inTmux ? tmuxPassthrough(seq) : seq;
}

/** The terminal (or tmux pane) title: OSC 2. */
export function titleBytes(title: string): string {
  return `${ESC}]2;${oscText(title)}${ST}`;
}

/** Outside tmux: push the current title on the terminal's stack (XTWINOPS 22), and pop it back (23). */
export const SAVE_TITLE = `${ESC}[22;0t`;
export const RESTORE_TITLE = `${ESC}[23;0t`;

/** The title tower shows: how many runs need you. */
export function needYouTitle(count: number): string {
  return count === 0 ? 'tower' : `tower · ${count} need${count === 1 ? 's' : ''} you`;
}
