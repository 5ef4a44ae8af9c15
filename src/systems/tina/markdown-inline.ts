/**
 * The inline part of tower's handoff reader: text, code spans, hard breaks, backslash escapes and
 * character references. Emphasis, links, images, autolinks and inline HTML are deliberately not
 * recognized (a handoff's `**Key:**` stays literal text), so every construct here is found in one
 * left-to-right pass.
 */
import type { PhrasingContent } from 'mdast';

type Inline = Extract<PhrasingContent, { type: 'text' | 'inlineCode' | 'break' }>;

const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/**
 * Named references a handoff may plausibly hold. The full HTML list has over 2,000 names; a name not
 * listed here stays as written (`&Aring;` does; a full parser would decode it).
 */
export const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '\u00ad', copy: '\u00a9', reg: '\u00ae',
  trade: '\u2122', hellip: '\u2026', mdash: '\u2014', ndash: '\u2013', lsquo: '\u2018', rsquo: '\u2019',
  ldquo: '\u201c', rdquo: '\u201d', laquo: '\u00ab', raquo: '\u00bb', bull: '\u2022', middot: '\u00b7',
  times: '\u00d7', divide: '\u00f7', deg: '\u00b0', plusmn: '\u00b1', micro: '\u00b5', para: '\u00b6',
  sect: '\u00a7', euro: '\u20ac', pound: '\u00a3', yen: '\u00a5', cent: '\u00a2', larr: '\u2190', rarr: '\u2192',
  uarr: '\u2191', darr: '\u2193', harr: '\u2194', lArr: '\u21d0', rArr: '\u21d2', hArr: '\u21d4', le: '\u2264',
  ge: '\u2265', ne: '\u2260', asymp: '\u2248', infin: '\u221e', minus: '\u2212', check: '\u2713', cross: '\u2717',
  star: '\u2606', starf: '\u2605', frac12: '\u00bd', frac14: '\u00bc', frac34: '\u00be', sup2: '\u00b2',
  sup3: '\u00b3', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwnj: '\u200c', zwj: '\u200d',
  dagger: '\u2020', Dagger: '\u2021', prime: '\u2032', iexcl: '\u00a1', iquest: '\u00bf', num: '#',
  excl: '!', colon: ':', lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', ast: '*', lowbar: '_', verbar: '|',
  grave: '`', bsol: '\\', sol: '/', semi: ';', comma: ',', period: '.', equals: '=', plus: '+', dollar: '$',
  percnt: '%', quest: '?', commat: '@', Hat: '^', tilde: '\u02dc', lcub: '{', rcub: '}', NewLine: '\n', Tab: '\t',
};

const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{0,31}));/y;

/** A numeric reference's character; code points HTML forbids (controls, surrogates, beyond Unicode) read as U+FFFD. */
function numeric(code: number): string {
  const bad =
    code < 9 ||
    code === 11 ||
    (code > 13 && code < 32) ||
    (code > 126 && code < 160) ||
    (code > 55295 && code < 57344) ||
    (code > 64975 && code < 65008) ||
    (code & 65535) === 65535 ||
    (code & 65535) === 65534 ||
    code > 1114111;
  return bad ? '\ufffd' : String.fromCodePoint(code);
}

/** The reference at `at` (which holds `&`): its text and length, or null when there is none. */
function reference(text: string, at: number): [string, number] | null {
  REFERENCE.lastIndex = at;
  const m = REFERENCE.exec(text);
  if (!m) return null;
  if (m[1] !== undefined) return [numeric(parseInt(m[1], 16)), m[0].length];
  if (m[2] !== undefined) return [numeric(parseInt(m[2], 10)), m[0].length];
  const named = Object.hasOwn(NAMED_REFERENCES, m[3] ?? '') ? NAMED_REFERENCES[m[3] ?? ''] : undefined;
  return named === undefined ? null : [named, m[0].length];
}

/** Backslash escapes and character references decoded, as in a code fence's info string. */
export function decodeText(text: string): string {
  if (!text.includes('\\') && !text.includes('&')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    const next = text[i + 1] ?? '';
    if (c === '\\' && PUNCTUATION.has(next)) {
      out += next;
      i++;
    } else if (c === '&') {
      const ref = reference(text, i);
      if (ref) i += ref[1] - 1;
      out += ref ? ref[0] : c;
    } else out += c;
  }
  return out;
}

/** Start positions of each length of backtick run, for finding a code span's closing run in linear time. */
class BacktickRuns {
  private readonly byLength = new Map<number, number[]>();
  private readonly next = new Map<number, number>();

  constructor(text: string) {
    for (let i = text.indexOf('`'); i !== -1; i = text.indexOf('`', i)) {
      let end = i;
      while (text[end] === '`') end++;
      const list = this.byLength.get(end - i) ?? [];
      list.push(i);
      this.byLength.set(end - i, list);
      i = end;
    }
  }

  /** The first run of exactly `length` backticks starting at or after `from`; calls come with growing `from`. */
  find(length: number, from: number): number {
    const list = this.byLength.get(length);
    if (!list) return -1;
    let k = this.next.get(length) ?? 0;
    while (k < list.length && (list[k] ?? 0) < from) k++;
    this.next.set(length, k);
    return list[k] ?? -1;
  }
}

/** A run of characters that start nothing. */
const PLAIN = /[^ \t\\\r\n&`]+/y;

/** The position after the leading spaces and tabs of the line starting at `at` (they are not text). */
function afterLineStart(text: string, at: number): number {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

const isEol = (c: string | undefined): boolean => c === '\n' || c === '\r';

/** The length of the line ending at `at` (2 for CRLF), 0 when there is none. */
function eolLength(text: string, at: number): number {
  if (text[at] === '\r') return text[at + 1] === '\n' ? 2 : 1;
  return text[at] === '\n' ? 1 : 0;
}

/** A code span's value: one space or line ending of padding off each side when both sides have one. */
function codeValue(raw: string, inTable: boolean): string {
  let value = raw;
  const head = eolLength(value, 0) || (value[0] === ' ' ? 1 : 0);
  const last = value.length - 1;
  const tail = value[last] === '\n' && value[last - 1] === '\r' ? 2 : value[last] === ' ' || isEol(value[last]) ? 1 : 0;
  if (head > 0 && tail > 0 && /[^ \r\n]/.test(value)) value = value.slice(head, value.length - tail);
  // A table cell's `\|` is a pipe even inside code (the cell was cut at unescaped pipes first).
  return inTable ? value.replace(/\\\|/g, '|') : value;
}

/**
 * The inline content of a paragraph, heading or table cell. `text` holds its lines with their line
 * endings. Soft line breaks stay in the text as written; whitespace around them is dropped (except
 * inside code spans), two or more spaces or a backslash before one make a break.
 */
export function parseInline(text: string, inTable = false): Inline[] {
  const out: Inline[] = [];
  const runs = text.includes('`') ? new BacktickRuns(text) : null;
  let buf = '';
  // Trailing spaces and tabs written as such at the end of `buf`, and whether a tab is among them.
  let trail = 0;
  let trailTab = false;
  const flush = (): void => {
    if (buf !== '') out.push({ type: 'text', value: buf });
    buf = '';
    trail = 0;
  };
  const add = (s: string): void => {
    buf += s;
    trail = 0;
    trailTab = false;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === ' ' || c === '\t') {
      buf += c;
      trail++;
      trailTab ||= c === '\t';
      i++;
    } else if (c === '\\') {
      const next = text[i + 1];
      if (isEol(next)) {
        flush();
        out.push({ type: 'break' });
        i = afterLineStart(text, i + 1 + eolLength(text, i + 1));
      } else if (next !== undefined && PUNCTUATION.has(next)) {
        add(next);
        i += 2;
      } else {
        add(c);
        i++;
      }
    } else if (isEol(c)) {
      const hard = trail >= 2 && !trailTab;
      buf = buf.slice(0, buf.length - trail);
      trail = 0;
      const n = eolLength(text, i);
      if (hard) {
        flush();
        out.push({ type: 'break' });
      } else add(text.slice(i, i + n));
      i = afterLineStart(text, i + n);
    } else if (c === '&') {
      const ref = reference(text, i);
      add(ref ? ref[0] : c);
      i += ref ? ref[1] : 1;
    } else if (c === '`' && runs) {
      let end = i;
      while (text[end] === '`') end++;
      const close = runs.find(end - i, end);
      if (close === -1) {
        add(text.slice(i, end));
        i = end;
      } else {
        flush();
        out.push({ type: 'inlineCode', value: codeValue(text.slice(end, close), inTable) });
        i = close + (end - i);
      }
    } else {
      // Plain characters up to the next one that may start something.
      PLAIN.lastIndex = i + 1;
      const end = PLAIN.exec(text) ? PLAIN.lastIndex : i + 1;
      add(text.slice(i, end));
      i = end;
    }
  }
  buf = buf.slice(0, buf.length - trail);
  flush();
  return out;
}
