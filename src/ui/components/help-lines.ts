/** The `?` overlay: every command of the keymap with its keys, grouped, from the same table as the footer. Pure. */
import type { Bindings, CommandSpec } from '../../keys/keymap.js';
import { KEY_CONTEXTS, KEYMAP, contextWords, keysLabel } from '../../keys/keymap.js';
import type { Segment } from '../text/segments.js';
import { fit, wrapText } from '../text/width.js';

const GROUPS: readonly CommandSpec['group'][] = ['Navigate', 'Act', 'Dialogs', 'General'];

/** All lines of the help overlay (the overlay scrolls through them). */
export function helpLines(bindings: Bindings, width: number): Segment[][] {
  const keyWidth = Math.min(18, Math.max(8, Math.floor(width / 4)));
  const lines: Segment[][] = [];
  for (const group of GROUPS) {
    if (lines.length > 0) lines.push([]);
    lines.push([{ text: group, tone: 'title' }]);
    for (const spec of KEYMAP.filter((s) => s.group === group)) {
      const where =
        spec.contexts.length === KEY_CONTEXTS.length ? 'everywhere' : spec.contexts.map(contextWords).join(', ');
      // A line longer than the overlay wraps under its description instead of losing its end to `…`.
      const desc = `${spec.command}: ${spec.description}`;
      const indent = 2 + keyWidth + 1;
      const rest = Math.max(1, width - indent);
      const full = `${desc} (${where})`;
      let at = 0;
      wrapText(full, rest).forEach((text, i) => {
        at = Math.max(at, full.indexOf(text, at));
        // The part from `(` on is dim: it says where the key works.
        const dimAt = Math.max(0, Math.min(text.length, desc.length + 1 - at));
        at += text.length;
        lines.push([
          { text: '  ' },
          { text: i === 0 ? fit(keysLabel(bindings, spec.command), keyWidth) : ' '.repeat(keyWidth), tone: 'key' },
          { text: ' ' },
          { text: text.slice(0, dimAt) },
          { text: text.slice(dimAt), tone: 'dim' },
        ]);
      });
    }
  }
  return lines;
}
