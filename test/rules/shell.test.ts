/**
 * Generated commands against generated rules: every part is written with any quoting sh allows,
 * parts joined by any separator (newlines too), comments added that hide `; rm -rf /` from sh. The
 * parts sh would run are known to the generator; the rules' verdict must follow them: a command with
 * any part a deny rule matches is denied, one with a part no allow rule matches is never allowed,
 * and one whose every part is allowed (and neither a part nor the whole text denied) is allowed.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/rules/match.js';
import { parseRules } from '../../src/rules/load.js';
import type { RuleRequest } from '../../src/rules/match.js';
import { RUNS } from '../helpers/fuzz.js';

const WORDS = ['npm', 'test', 'rm', '-rf', '/', 'ls', 'git', 'push', 'echo', 'x.txt', '--force', '$HOME'];
/** Values only quoting keeps in one word: separators, quotes, a comment sign, a newline. */
const SPECIAL = ['a && b', 'c;d', 'e|f', "it's", '#no', 'two\nlines', 'say "hi"', 'x > y'];
const SEPARATORS = [' && ', '; ', ' | ', '\n', ' || ', ' & ', ';\n'];

/** A word as sh reads it, written raw (when it may be), in single quotes, double quotes or escaped. */
function writtenAs(word: string, style: number): string {
  const plain = /^[A-Za-z0-9_./$-]+$/.test(word);
  if (style === 0 && plain) return word;
  if (style === 1 || (style === 0 && !plain)) return `'${word.replace(/'/g, `'\\''`)}'`;
  if (style === 2) return `"${word.replace(/["\\`]/g, '\\$&')}"`;
  return [...word].map((c) => (/[A-Za-z0-9]/.test(c) ? c : c === '\n' ? `'\n'` : `\\${c}`)).join('');
}

/** The part as the matcher writes it: words joined by a space, quoted only where needed. */
const asMatched = (words: string[]) => words.map((w) => (/[\s&|;<>()'"\\`]/.test(w) ? quote([w]) : w)).join(' ');

const word = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WORDS) }, fc.constantFrom(...SPECIAL));
const part = fc.array(fc.tuple(word, fc.nat({ max: 3 })), { minLength: 1, maxLength: 4 });
const command = fc.record({
  parts: fc.array(part, { minLength: 1, maxLength: 4 }),
  seps: fc.array(fc.constantFrom(...SEPARATORS), { minLength: 4, maxLength: 4 }),
  comment: fc.option(fc.constantFrom('# ; rm -rf /', "# it's && rm -rf /", '#x'), { nil: null }),
});
const glob = fc.oneof(
  fc.constantFrom(...WORDS).map((w) => `${w} *`),
  fc.constantFrom(...WORDS).map((w) => `${w}*`),
  fc.constantFrom(...WORDS),
  fc.constantFrom('*', 'rm -rf *', '* --force*', "echo 'a && b'"),
);
const rules = fc.array(fc.record({ decision: fc.constantFrom('allow', 'deny'), command: glob }), {
  minLength: 1,
  maxLength: 6,
});

const place = {
  box: 'b',
  system: null,
  run: null,
  team: null,
  member: null,
  role: null,
  agent: 'claude-code',
  root: null,
};
const matches = (g: string, text: string) => picomatch(g, { bash: true, dot: true, noextglob: true })(text);

describe('rules over generated commands', () => {
  it('deny wins on any part, and only a command with every part allowed is allowed', () => {
    fc.assert(
      fc.property(command, rules, (c, rs) => {
        const text =
          c.parts
            .map((p, i) => p.map(([w, s]) => writtenAs(w, s)).join(' ') + (i < c.parts.length - 1 ? c.seps[i] : ''))
            .join('') + (c.comment ? ` ${c.comment}` : '');
        const truth = c.parts.map((p) => asMatched(p.map(([w]) => w)));
        const compiled = parseRules('rules.json', JSON.stringify({ rules: rs.map((r) => ({ ...r, tool: 'Bash' })) }));
        expect(compiled.problem).toBeNull();
        const req: RuleRequest = { tool: 'Bash', input: { command: text }, cwd: null, place };
        const v = judge(compiled.rules, req);
        // A deny rule is matched against each part and against the command's whole text.
        const denied = [...truth, text].some((p) => rs.some((r) => r.decision === 'deny' && matches(r.command, p)));
        const unmatched = truth.some((p) => !rs.some((r) => r.decision === 'allow' && matches(r.command, p)));
        if (denied) expect(v.acts).toBe('deny');
        if (unmatched) expect(v.acts).not.toBe('allow');
        if (!denied && !unmatched) expect(v.acts).toBe('allow');
      }),
      RUNS,
    );
  });

  it('a command that runs another unseen ($(…), backticks, <(…), a subshell) is never allowed by a command rule', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('$(rm -rf /)', '`rm -rf /`', '<(rm -rf /)', '(rm -rf /)', '"$(rm -rf /)"'),
        fc.constantFrom('npm test ', 'ls ', 'echo '),
        (hidden, before) => {
          const compiled = parseRules('r', JSON.stringify({ rules: [{ decision: 'allow', command: '*' }] }));
          const v = judge(compiled.rules, { tool: 'Bash', input: { command: before + hidden }, cwd: null, place });
          expect(v.acts).toBeNull();
        },
      ),
      RUNS,
    );
  });
});
