/** The bottom of a pane's screen, as the readers of activity and prompts look at it. */

/** How many non-blank lines at the bottom of the screen are looked at. */
const TAIL = 12;

/** The last non-blank lines of a screen (escape sequences already removed). */
export function screenTail(plain: string, count = TAIL): string[] {
  const lines = plain.split('\n').map((l) => l.replace(/\s+$/, ''));
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < count; i--) {
    const line = lines[i];
    if (line) out.unshift(line);
  }
  return out;
}
