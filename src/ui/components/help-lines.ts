/** The `?` overlay: every command of the keymap with its keys, grouped, from the same table as the footer. Pure. */
import type { Bindings, CommandSpec } from '../../keys/keymap.js';
import { KEY_CONTEXTS, KEYMAP, contextWords, keysLabel } from '../../keys/keymap.js';
import type { Segment } from '../text/segments.js';
import { fit } from '../text/width.js';

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
      lines.push([
        { text: '  ' },
        { text: fit(keysLabel(bindings, spec.command), keyWidth), tone: 'key' },
        { text: ' ' },
        { text: `${spec.command}: ${spec.description}` },
        { text: ` (${where})`, tone: 'dim' },
      ]);
    }
  }
  return lines;
}
