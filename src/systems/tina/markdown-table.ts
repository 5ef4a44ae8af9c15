/** GitHub tables for tower's handoff reader: a row's cells and a delimiter row's alignments. */
import type { AlignType } from 'mdast';

/**
 * The cells of a table row, cut at pipes that are not escaped (`\|` and `\\` are pairs; code spans
 * do not protect pipes). A leading pipe opens the first cell, a trailing pipe with nothing after it
 * closes the last; cells keep their surrounding whitespace. A lone `|` is one empty cell.
 */
export function rowCells(line: string): string[] {
  const cells: string[] = [];
  let start = 0;
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  if (line[i] === '|') start = i + 1;
  for (i = start; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && (line[i + 1] === '\\' || line[i + 1] === '|')) i++;
    else if (c === '|') {
      cells.push(line.slice(start, i));
      start = i + 1;
    }
  }
  const last = line.slice(start);
  if (/[^ \t]/.test(last) || cells.length === 0) cells.push(last);
  return cells;
}

const DELIMITER_CELL = /^[ \t]*(:?)-+(:?)[ \t]*$/;

/**
 * The alignments of a delimiter row (`| --- | :-: |`), or null when the line is not one. It needs a
 * pipe or a colon somewhere, so a setext underline (`---`) is never taken for one.
 */
export function delimiterRow(line: string): AlignType[] | null {
  if (!line.includes('|') && !line.includes(':')) return null;
  let body = line.replace(/^[ \t]+/, '');
  if (body.startsWith('|')) body = body.slice(1);
  body = body.replace(/[ \t]+$/, '');
  if (body.endsWith('|')) body = body.slice(0, -1);
  const align: AlignType[] = [];
  for (const cell of body.split('|')) {
    const m = DELIMITER_CELL.exec(cell);
    if (!m) return null;
    align.push(m[1] && m[2] ? 'center' : m[1] ? 'left' : m[2] ? 'right' : null);
  }
  return align;
}
