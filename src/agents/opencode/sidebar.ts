/**
 * opencode's session sidebar, drawn on the right of the rows its dialogs use (context, cost, the
 * project's path wrapped over two rows, its version): cut off at its column so a dialog row that
 * shares a row with it is read alone. The column is the one most sidebar-only rows (a wide gap, then
 * text) start at; a row whose text runs into it is left whole, and then not read.
 */

/** The fewest sidebar-only rows that tell its column. */
const MIN_ROWS = 3;

/** The column the sidebar starts at on this screen, or null when none is told. */
export function sidebarColumn(lines: readonly string[]): number | null {
  const counts = new Map<number, number>();
  for (const l of lines) {
    const m = /^(\s*┃)?\s{10,}\S/.exec(l);
    if (m) counts.set(m[0].length - 1, (counts.get(m[0].length - 1) ?? 0) + 1);
  }
  let best: number | null = null;
  let most = 0;
  for (const [col, n] of counts)
    if (n > most) {
      best = col;
      most = n;
    }
  return most >= MIN_ROWS ? best : null;
}

/** The screen's rows with the sidebar cut off where a gap of two blanks or more stands before it. */
export function withoutSidebar(plain: string): string[] {
  const lines = plain.split('\n');
  const col = sidebarColumn(lines);
  if (col === null) return lines;
  return lines.map((l) => (l.length > col && /\s{2}$/.test(l.slice(0, col)) ? l.slice(0, col).trimEnd() : l));
}
