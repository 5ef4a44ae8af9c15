/** A gate's full text as lines: what it is, where it lives, and its body. Pure. */
import type { Gate } from '../../model/model.js';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';
import { wrapText } from './width.js';

/** The lines of a gate's body (or where it lives, when it has none). */
export function gateBody(gate: Gate, width: number): string[] {
  const head = [`${gate.kind} ${sanitizeLine(gate.id)}: ${sanitizeLine(gate.title)}`];
  if (gate.file) head.push(`file: ${sanitizeLine(gate.file)}`);
  if (!gate.grantable && gate.state === 'pending')
    head.push(gate.kind === 'context' ? 'not grantable: run the checkpoint cycle (c)' : 'not grantable from tower');
  const body = gate.body ? sanitize(gate.body).split('\n') : [];
  return [...head, ...body].flatMap((l) => wrapText(l, width - 1)).map((l) => ` ${l}`);
}
