/**
 * A shell command line cut into the parts a shell runs one after another or side by side: at `;`,
 * `&&`, `||`, `|`, `&` and newlines outside quotes, each part kept as written with the operator
 * that ends it. Shown one part per line, a dangerous tail (`… ; curl x | sh`) is a line of its own
 * rather than the end of a long line. Only for showing: nothing is run from it, and text it cannot
 * cut (an open quote) stays one part.
 */

/** One part of a command line and the operator after it (`''` for the last). */
export interface CommandPart {
  text: string;
  then: string;
}

/** The parts of `command`, cut at operators outside quotes; `$(…)` and backquotes are read as quotes. */
export function commandParts(command: string): CommandPart[] {
  const parts: CommandPart[] = [];
  let start = 0;
  let quote: string | null = null;
  let depth = 0;
  const push = (end: number, then: string, next: number) => {
    const text = command.slice(start, end).trim();
    if (text !== '') parts.push({ text, then });
    else if (parts.length > 0 && then !== '\n') parts[parts.length - 1]!.then += ` ${then}`;
    start = next;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote !== null) {
      if (c === '\\' && quote !== "'") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\') {
      i++;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
    } else if (c === '$' && command[i + 1] === '(') {
      depth++;
      i++;
    } else if (c === '(' && depth > 0) {
      depth++;
    } else if (c === ')' && depth > 0) {
      depth--;
    } else if (depth === 0) {
      const two = command.slice(i, i + 2);
      if (two === '&&' || two === '||') {
        push(i, two, i + 2);
        i++;
      } else if (
        c === ';' ||
        c === '|' ||
        c === '\n' ||
        (c === '&' && command[i + 1] !== '>' && command[i - 1] !== '>')
      ) {
        push(i, c, i + 1);
      }
    }
  }
  push(command.length, '', command.length);
  return parts;
}

/** The command one part per line, each but the last ending with its operator (`npm test &&`). */
export function commandLines(command: string): string[] {
  return commandParts(command).map((p) => (p.then === '' || p.then === '\n' ? p.text : `${p.text} ${p.then}`));
}
