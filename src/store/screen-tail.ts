/** The bottom of a pane's screen, as the readers of activity and prompts look at it. */

/** How many non-blank lines at the bottom of the screen are looked at. */
const TAIL = 12;

/**
 * The last non-blank lines of a screen (escape sequences already removed), trailing blanks cut.
 * Read from the end: a capture holds its scrollback too, and a streamed pane is read ten times a
 * second, each time by several readers that want only its bottom.
 */
export function screenTail(plain: string, count = TAIL): string[] {
  const out: string[] = [];
  let end = plain.length;
  while (out.length < count) {
    const nl = end > 0 ? plain.lastIndexOf('\n', end - 1) : -1;
    const line = plain.slice(nl + 1, end).replace(/\s+$/, '');
    if (line) out.push(line);
    if (nl < 0) break;
    end = nl;
  }
  return out.reverse();
}
