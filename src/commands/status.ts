import type { AppContext } from '../context/context.js';
import type { HostState, Snapshot } from '../model/model.js';
import { readThisBox } from '../store/this-box.js';
import { sanitizeLine } from '../text/sanitize.js';
import { formatStatus } from './status-text.js';
import { writeJsonLine } from './json-out.js';

/** `tower status [--json]`: one snapshot of every run, then exit 0 (problems are data, not failures). */
export async function statusCommand(ctx: AppContext, opts: { json: boolean }): Promise<number> {
  const now = Date.now();
  let snapshot: Snapshot;
  try {
    if (ctx.hosts.length === 0 && ctx.local) {
      // This box alone: the remote machinery (ssh links, live stores, actions) is not even loaded.
      snapshot = await readThisBox(ctx, { activity: true, now });
    } else {
      // Beside hosts, every box is read at once; each host has its own timeout.
      const boxes = await (await import('../remote/boxes.js')).openBoxes(ctx, { activity: true });
      snapshot = boxes.snapshot;
      await boxes.close();
    }
  } catch (err) {
    // Only a bug gets here: bad files are problems inside the snapshot.
    const msg = err instanceof Error ? (err.stack ?? err.message) : String(err);
    ctx.err.write(`tower: could not read any state: ${msg}\n`);
    return 1;
  }
  if (opts.json) {
    // Indented for a person at a terminal; one line for a script or a pipe (half the bytes over ssh).
    const tty = (ctx.out as NodeJS.WriteStream).isTTY === true;
    if (tty) ctx.out.write(`${JSON.stringify(snapshot, null, 2)}\n`);
    else await writeJsonLine(ctx.out, snapshot as unknown as Record<string, unknown>);
    return 0;
  }
  const color = ctx.color && (ctx.out as NodeJS.WriteStream).isTTY === true;
  let text = formatStatus(snapshot, { color, now });
  if (snapshot.hosts?.length) text += `Hosts: ${snapshot.hosts.map(hostWord).join(', ')}\n`;
  if (snapshot.runs.length === 0) {
    const roots = ctx.roots.length ? ctx.roots.map(sanitizeLine).join(', ') : 'none given';
    text +=
      `Looked in ${sanitizeLine(ctx.claudeDir)}, the working directories of the tmux server's ` +
      `panes, and roots (${roots}).\n`;
  }
  ctx.out.write(text);
  return 0;
}

/** One host in the text output: `build-1 ok [rules: yours]`, `build-2 unreachable since 14:02:11 (why)`. */
function hostWord(h: HostState): string {
  const since = h.state !== 'ok' && h.since ? ` since ${h.since.slice(11, 19)}` : '';
  const rules = h.rules ? ` [rules: ${h.rules.whose === 'yours' ? 'yours' : "the box's"}]` : '';
  return `${sanitizeLine(h.name)} ${h.state}${since}${h.error ? ` (${sanitizeLine(h.error)})` : ''}${rules}`;
}
