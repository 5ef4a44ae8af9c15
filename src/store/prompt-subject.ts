/**
 * What a permission dialog is about: its own lines between its top and its question, never the
 * transcript above it. Claude Code 2.1.332 opens the dialog with a full-width `─` rule; then the
 * tool's title, perhaps a tip (`Tip: auto mode handles these prompts for you — …`, wrapped in a
 * narrow pane), the description, and the command between two `╌` rules. Older versions drew a box
 * whose top is `╭`. Pure.
 */

/**
 * A rule of `─` as wide as the pane (at least this long: the dialog's top, not a short underline),
 * from the first column: the command's own lines are drawn indented, so a command line of `─`
 * is never taken for the top (and the subject never starts after it, mid-command).
 */
const TOP_RULE = /^─{20,}$/;
const BOX_TOP = /^[╭┌]/;
/** The dashed rules around the command, and any other line drawn of rule characters only. */
const RULE = /^[─━╌┄┈═]+$/;
const TIP = /^Tip:/;
/**
 * The tips the CLI draws under a dialog's title, as one line (2.1.332's Bash dialog, bold). A tip
 * known here is dropped however it wrapped; another is taken to end where the lines stop filling
 * the width.
 */
const KNOWN_TIPS = ['Tip: auto mode handles these prompts for you — choose "switch to auto mode" below'];
/** Lines above the question searched for the dialog's top. */
const MAX_DIALOG = 36;

/**
 * The dialog's subject: its lines from below its top (the `─` rule or the box's `╭`) to the
 * question, without rules, blank lines and the tip. `raw` are the screen's lines as captured,
 * `lines` the same without box borders, `q` the question's index. With no top in sight (a dialog
 * taller than the screen) the subject starts at the first line looked at, and `top` is false;
 * `full` says the search for the top ran its whole length (MAX_DIALOG lines) without finding it.
 */
export function dialogSubject(
  raw: readonly string[],
  lines: readonly string[],
  q: number,
): { lines: string[]; top: boolean; full: boolean } {
  let top = -1;
  for (let i = q - 1; i >= 0 && q - i <= MAX_DIALOG; i--) {
    const line = raw[i] ?? '';
    if (TOP_RULE.test(line) || BOX_TOP.test(line)) {
      top = i;
      break;
    }
  }
  // The pane's width is the top rule's: what a wrapped line filled up to.
  const width = top >= 0 && TOP_RULE.test(raw[top] ?? '') ? (raw[top] ?? '').length : null;
  const body = lines.slice(top + 1, q);
  const title = titleOf(body);
  const out: string[] = title ? [title.text] : [];
  for (let i = title?.lines ?? 0; i < body.length; i++) {
    const text = (body[i] ?? '').trim();
    if (TIP.test(text)) {
      i = endOfParagraph(body, i, width);
      continue;
    }
    if (text !== '' && !RULE.test(text)) out.push(text);
  }
  return { lines: out, top: top >= 0, full: q > MAX_DIALOG };
}

/**
 * A title drawn as two columns side by side, each wrapping in a narrow pane: `Bash command` and
 * `· from the worker agent` (2.1.332 at 35 columns: `Bash        · from the worker` over
 * `command     agent`). Joined back to one line; null when the first line is no such title.
 */
function titleOf(body: readonly string[]): { text: string; lines: number } | null {
  const first = body[0] ?? '';
  const at = first.indexOf('· from the ');
  if (at < 0) return null;
  const left = [first.slice(0, at).trim()];
  const right = [first.slice(at).trim()];
  let n = 1;
  // A line of the title has a gap just left of the right column, and nothing to the left of it
  // reaching into that column; a line that runs across it (the tip, the description) ends the title.
  while (n < body.length) {
    const line = body[n] ?? '';
    if (line.trim() === '' || line.length <= at || line[at - 1] !== ' ' || /^\s*Tip:/.test(line)) break;
    left.push(line.slice(0, at).trim());
    right.push(line.slice(at).trim());
    n++;
  }
  const join = (parts: string[]) => parts.filter((p) => p !== '').join(' ');
  return { text: `${join(left)} ${join(right)}`, lines: n };
}

/**
 * The last line of the paragraph that starts at `i`: a line continues it when its first word would
 * not have fitted at the end of the line before (the CLI wraps at the pane's width). Without the
 * width, the paragraph is its first line.
 */
function endOfParagraph(body: readonly string[], i: number, width: number | null): number {
  let joined = (body[i] ?? '').trim();
  const known = KNOWN_TIPS.find((t) => t.startsWith(joined));
  if (known !== undefined) {
    let end = i;
    while (joined !== known && end + 1 < body.length) {
      const longer = `${joined} ${(body[end + 1] ?? '').trim()}`;
      if (!known.startsWith(longer)) break;
      joined = longer;
      end++;
    }
    return end;
  }
  if (width === null) return i;
  let end = i;
  while (end + 1 < body.length) {
    const line = (body[end] ?? '').trimEnd();
    const next = (body[end + 1] ?? '').trim();
    const word = next.split(/\s+/)[0] ?? '';
    if (next === '' || RULE.test(next) || line.length + 1 + word.length <= width - 1) break;
    end++;
  }
  return end;
}
