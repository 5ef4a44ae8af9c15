/**
 * A shell command cut into the commands it runs, so that each part is matched on its own: `npm test
 * && rm -rf /` is two parts, and a rule that allows `npm test *` allows only the first. Words are
 * read by shell-quote (quotes, escapes, operators); lines are cut here first, because shell-quote
 * reads a newline as a space and `npm test` followed by a line `rm -rf /` would be one part.
 * What runs a command tower cannot see before it runs (`$(…)`, backticks, `<(…)`, a subshell) makes
 * the command opaque: its parts are still matched (a deny still denies), but no rule over the
 * command allows it.
 */
import { parse, quote } from 'shell-quote';

/** The operators that end one command and start the next. */
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&']);
/** The operators that run a command tower cannot see before it runs. */
const HIDDEN_OPS = new Set(['(', ')', '<(', '>(']);

export interface CommandParts {
  /** Each command, its words joined by one space (quoted only where a word needs it), redirections kept. */
  parts: string[];
  /** Why no rule over the command may allow it, or null. */
  opaque: string | null;
}

/** Characters after which a `#` starts a comment (a word starts there), as in sh. */
const WORD_START = /[\s;&|()<>]/;

/**
 * The command's lines, cut at each newline outside quotes, without sh's comments (a `#` that
 * starts a word, outside quotes, up to the line's end); a backslash before a newline joins the
 * lines, as the shell does. `unclosed` when a quote is still open at the end.
 */
export function commandLines(command: string): { lines: string[]; unclosed: boolean } {
  const lines: string[] = [];
  let line = '';
  let quoteChar: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (ch === '\\' && quoteChar !== "'") {
      const next = command[i + 1];
      i++;
      if (next !== '\n') line += ch + (next ?? '');
      continue;
    }
    if (quoteChar === null && ch === '#' && (line === '' || WORD_START.test(line[line.length - 1]!))) {
      while (i + 1 < command.length && command[i + 1] !== '\n') i++;
      continue;
    }
    if (quoteChar === null && (ch === '"' || ch === "'")) quoteChar = ch;
    else if (ch === quoteChar) quoteChar = null;
    if (ch === '\n' && quoteChar === null) {
      lines.push(line);
      line = '';
      continue;
    }
    line += ch;
  }
  lines.push(line);
  return { lines: lines.filter((l) => l.trim() !== ''), unclosed: quoteChar !== null };
}

/** A word as sh would need it written: quoted only when it holds a blank or a character sh acts on. */
function asWritten(word: string): string {
  return /[\s&|;<>()'"\\`]/.test(word) ? quote([word]) : word;
}

/** Why a command's text alone makes it opaque, or null. */
function hiddenInText(command: string): string | null {
  if (command.includes('`')) return 'it runs a command in backticks';
  if (command.includes('$(')) return 'it runs a command in $(…)';
  if (/[<>]\(/.test(command)) return 'it runs a command in <(…) or >(…)';
  return null;
}

/** The parts of a shell command, and whether it is opaque. */
export function commandParts(command: string): CommandParts {
  const parts: string[] = [];
  const { lines, unclosed } = commandLines(command);
  let opaque = hiddenInText(command) ?? (unclosed ? 'a quote in it is never closed' : null);
  for (const line of lines) {
    let words: string[] = [];
    const end = () => {
      if (words.length > 0) parts.push(words.join(' '));
      words = [];
    };
    // Variables are kept as written ($HOME stays $HOME), never expanded from tower's own environment.
    for (const entry of parse(line, (name) => `$${name}`)) {
      if (typeof entry === 'string') words.push(asWritten(entry));
      else if ('comment' in entry) {
        // sh's own comments were taken out above: this `#` is inside a word, where sh does not start one.
        opaque ??= 'a # inside a word is read differently by sh and by the parser';
        end();
        break;
      } else if (entry.op === 'glob') words.push(entry.pattern);
      else if (SEPARATORS.has(entry.op)) end();
      else if (HIDDEN_OPS.has(entry.op)) {
        opaque ??= entry.op === '(' || entry.op === ')' ? 'it runs a subshell' : 'it runs a command in <(…) or >(…)';
        end();
      } else words.push(entry.op);
    }
    end();
  }
  if (parts.length === 0) opaque ??= 'it runs no command';
  return { parts, opaque };
}
