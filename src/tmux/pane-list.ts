/**
 * One `list-panes` call's markers, its format and the parsing of its output: every record and field
 * framed by a nonce made for the call, so nothing a pane holds can forge a pane.
 */
import { randomHex } from '../text/random.js';

/** One pane of the server, as one `list-panes -a` line. */
export interface PaneInfo {
  paneId: string;
  pid: number;
  session: string;
  window: number;
  index: number;
  cwd: string;
  dead: boolean;
  command: string;
  title: string;
}

const PANE_FIELDS = [
  '#{pane_id}',
  '#{pane_pid}',
  '#{session_name}',
  '#{window_index}',
  '#{pane_index}',
  '#{pane_dead}',
  '#{pane_current_command}',
  '#{pane_current_path}',
  '#{pane_title}',
] as const;

/**
 * The markers of one `list-panes` call. tmux prints pane paths and titles raw (newlines and tabs
 * included, and `#{q:}` does not escape them), so records and fields are delimited by a random
 * nonce no pane can know in advance: no field value can forge a record or a field.
 */
export interface PaneListMarkers {
  open: string;
  sep: string;
  close: string;
}

/** Fresh markers for one call. */
export function paneListMarkers(): PaneListMarkers {
  const nonce = randomHex(12);
  return { open: `<${nonce}<`, sep: `|${nonce}|`, close: `>${nonce}>` };
}

/** The `-F` format that wraps every record and field in the call's markers. */
export function paneFormat(m: PaneListMarkers): string {
  return `${m.open}${PANE_FIELDS.join(m.sep)}${m.close}`;
}

/**
 * Parses `list-panes -a -F paneFormat(markers)` output: only text between the call's own markers
 * counts, so a pane path holding newlines, tabs or a whole fake line is just that pane's path.
 * Records that do not have every field, or whose id or pid is malformed, are skipped.
 */
export function parsePaneList(stdout: string, m: PaneListMarkers): PaneInfo[] {
  const panes: PaneInfo[] = [];
  let at = 0;
  for (;;) {
    const start = stdout.indexOf(m.open, at);
    if (start < 0) break;
    const end = stdout.indexOf(m.close, start + m.open.length);
    if (end < 0) break;
    at = end + m.close.length;
    const fields = stdout.slice(start + m.open.length, end).split(m.sep);
    if (fields.length !== PANE_FIELDS.length) continue;
    const [
      paneId = '',
      pid = '',
      session = '',
      window = '',
      index = '',
      dead = '',
      command = '',
      cwd = '',
      title = '',
    ] = fields;
    if (!/^%\d+$/.test(paneId) || !/^\d+$/.test(pid)) continue;
    panes.push({
      paneId,
      pid: Number(pid),
      session,
      window: Number(window) || 0,
      index: Number(index) || 0,
      dead: dead === '1',
      command,
      cwd,
      title,
    });
  }
  return panes;
}
