/**
 * Over generated screens, the guard before typing (notAtInput) never lets a line be typed into a
 * pane whose screen shows a dialog, and lets it into a plain input box. Dialogs of every shape tower
 * meets (Claude Code 2.1.332's `─`-ruled dialog, titled for the lead or a teammate, with its tip,
 * 1 to 80 command lines wrapped at the width; an older `╭…╰` box; a `[y/n]` question; a shape tower
 * does not read: numbered choices under a line that is no known question), at any width and pane
 * height: whole, taller than the pane with the CLI's `↑ N more lines` row, cut at the top with no
 * such row, or half drawn (the frame stopped at any line), under transcript noise. The ground truth
 * is generated alongside each screen. Input boxes: Claude Code's (a `❯` line, perhaps a draft, between
 * two rules, status lines under it) and a plain `❯ ` / `> ` prompt, under benign transcript lines.
 * And a Claude Code dialog whose top is out of sight is read with its subject marked cut.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notAtInput } from '../../src/store/input-box.js';
import { CUT_MARK, readPrompt } from '../../src/store/prompt-reading.js';

/**
 * Transcript lines: what the CLI itself draws from the first column (the user's messages, its
 * marks), and what the model or a tool said, which the CLI draws indented: any text, dialog words,
 * rules and boxes included.
 */
const HOSTILE_NOISE = [
  '● Step 1: Bash.',
  '  ⎿  $ echo a > out-a.txt',
  '❯ run step 1',
  '  > quoted text',
  '  ────────────────────────────────',
  '  Do you want to proceed?',
  '  ❯ 1. an item of a list',
  '  ↑ 3 more lines',
  '  Esc to cancel',
  '✻ Churned for 6s · done 3:13 PM',
  '  ╭──────╮',
  '  │ box │',
  '  ╰──────╯',
  '',
];
/** Transcript lines with nothing of a dialog in them. */
const BENIGN_NOISE = [
  '● Step 1: Bash.',
  '  ⎿  $ echo a > out-a.txt',
  '❯ run step 1',
  '  Ran 1 shell command',
  '✻ Churned for 6s · done 3:13 PM',
  ' ▐▛███▛█   Claude Code v2.1.332',
  '',
];
const word = fc.stringMatching(/^[a-z0-9_./-]{1,12}$/);
const noise = (pool: readonly string[]) =>
  fc.array(
    fc.oneof(
      fc.constantFrom(...pool),
      fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')),
    ),
    {
      maxLength: 50,
    },
  );

/** Text wrapped at `width`, each piece indented as the CLI indents a dialog's lines. */
function wrap(text: string, width: number, indent = ' '): string[] {
  const room = Math.max(4, width - indent.length - 1);
  const out: string[] = [];
  for (let i = 0; i < text.length || i === 0; i += room) out.push(`${indent}${text.slice(i, i + room)}`);
  return out;
}

interface Shape {
  kind: 'claude' | 'box' | 'yes-no' | 'unknown';
  lines: string[];
  /** How many of the last lines are the options and what follows them (kept in sight when scrolled). */
  bottom: number;
}

const commandLine = fc.oneof(
  fc.array(word, { minLength: 1, maxLength: 12 }).map((w) => w.join(' ')),
  fc.constantFrom('─'.repeat(40), '> out.txt', '❯ 1. Yes', 'Do you want to proceed?', '╭──╮', '↑ 3 more lines'),
);

const claudeDialog = fc
  .record({
    teammate: fc.boolean(),
    tip: fc.boolean(),
    command: fc.array(commandLine, { minLength: 1, maxLength: 80 }),
    options: fc.integer({ min: 2, max: 4 }),
  })
  .map(({ teammate, tip, command, options }) => (width: number): Shape => {
    const lines = [
      '─'.repeat(width),
      ...wrap(teammate ? 'Bash command · from the worker agent' : 'Bash command', width),
      ...(tip ? wrap('Tip: auto mode handles these prompts for you — choose "switch to auto mode" below', width) : []),
      ...wrap('Run a script', width),
      '╌'.repeat(width),
      ...command.flatMap((c) => wrap(c, width, command.length > 20 ? ' │ ' : ' ')),
      '╌'.repeat(width),
      ' Do you want to proceed?',
    ];
    const opts = [
      'Yes',
      'Yes, and always allow access to /w/project from this project',
      'Yes, and switch to auto mode',
      'No',
    ];
    const chosen = [...opts.slice(0, options - 1), 'No'];
    const drawn = chosen.flatMap((label, i) => wrap(`${i === 0 ? '❯' : ' '} ${i + 1}. ${label}`, width, ' '));
    const tail = [...drawn, ' Esc to cancel · Tab to amend'];
    return { kind: 'claude', lines: [...lines, ...tail], bottom: tail.length };
  });

const boxDialog = fc.array(commandLine, { minLength: 1, maxLength: 20 }).map((command) => (width: number): Shape => {
  const w = Math.max(20, Math.min(width, 70));
  const box = (t: string) => `│ ${t.slice(0, w - 4).padEnd(w - 4)} │`;
  const tail = [box('❯ 1. Yes'), box('  2. No, and tell Claude what to do differently'), `╰${'─'.repeat(w - 2)}╯`];
  const lines = [
    `╭${'─'.repeat(w - 2)}╮`,
    box('Bash command'),
    ...command.map((c) => box(`  ${c}`)),
    box(''),
    box('Do you want to proceed?'),
    ...tail,
  ];
  return { kind: 'box', lines, bottom: tail.length };
});

const yesNo = fc
  .array(word, { minLength: 1, maxLength: 6 })
  .map((w) => (): Shape => ({ kind: 'yes-no', lines: [`Overwrite ${w.join(' ')}? [y/n]`], bottom: 1 }));

/** Numbered choices under a line that is no question tower knows, with a key hint: a dialog all the same. */
const unknownDialog = fc
  .record({ head: fc.array(word, { minLength: 1, maxLength: 6 }), hint: fc.boolean() })
  .map(({ head, hint }) => (): Shape => {
    const tail = [' ❯ 1. Keep going', '   2. Stop here', ...(hint ? [' Enter to confirm · Esc to cancel'] : [])];
    return { kind: 'unknown', lines: [` Pick one: ${head.join(' ')}`, ...tail], bottom: tail.length };
  });

/** How a dialog is in sight: whole, scrolled by the CLI, its top cut with no row saying so, or drawn up to a line. */
const sight = fc.oneof(
  fc.constant({ how: 'whole' as const, at: 0 }),
  fc.constant({ how: 'scrolled' as const, at: 0 }),
  fc.constant({ how: 'cut' as const, at: 0 }),
  fc.nat().map((at) => ({ how: 'half' as const, at })),
);

const dialogScreen = fc
  .record({
    width: fc.integer({ min: 30, max: 200 }),
    rows: fc.integer({ min: 10, max: 60 }),
    transcript: noise(HOSTILE_NOISE),
    shape: fc.oneof(claudeDialog, boxDialog, yesNo, unknownDialog),
    sight,
  })
  .map(({ width, rows, transcript, shape, sight }) => {
    const d = shape(width);
    let lines = d.lines;
    let scrolled = false;
    // Half drawn from its second line on: its top rule alone is a rule as the input box's own is
    // (a frame caught there is told by the guard's second look, not by one screen).
    if (sight.how === 'half') lines = lines.slice(0, 2 + (sight.at % Math.max(1, lines.length - 1)));
    else if (
      sight.how === 'scrolled' &&
      d.kind === 'claude' &&
      lines.length - d.bottom > Math.max(1, rows - d.bottom - 1)
    ) {
      // Taller than the pane: the CLI keeps the options in sight and says how many lines are above.
      const room = Math.max(1, rows - d.bottom - 1);
      const body = lines.slice(0, lines.length - d.bottom);
      const shown = body.slice(-room);
      const hint = lines[lines.length - 1]!;
      scrolled = true;
      lines = [
        ...shown,
        ...lines.slice(lines.length - d.bottom, -1),
        ` ↑ ${body.length - shown.length + 1} more lines`,
        hint,
      ];
    }
    const all = [...transcript, ...lines];
    const screen = (sight.how === 'cut' ? lines.slice(-rows) : all.slice(-rows)).join('\n');
    const topInSight = screen.split('\n').some((l) => /^─{20,}$/.test(l));
    return { screen, kind: d.kind, scrolled, topInSight };
  });

const inputScreen = fc
  .record({
    width: fc.integer({ min: 30, max: 200 }),
    rows: fc.integer({ min: 6, max: 60 }),
    transcript: noise(BENIGN_NOISE),
    claude: fc.boolean(),
    draft: fc.array(
      fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
      { maxLength: 3 },
    ),
    label: fc.boolean(),
    footer: fc.subarray(['  ⏸ manual mode on · ? for shortcuts', '  ok', '                     ◐ medium · /effort']),
    sign: fc.constantFrom('❯', '>'),
  })
  .map(({ width, rows, transcript, claude, draft, label, footer, sign }) => {
    const rule = '─'.repeat(width);
    const box = claude
      ? [
          label ? `${'─'.repeat(width - 10)} @worker ─` : rule,
          `${sign} ${draft.length > 0 ? `please ${draft[0]}` : ''}`.trimEnd(),
          ...draft.slice(1).map((d) => `  ${d}`),
          rule,
          ...footer,
        ]
      : [`${sign} `];
    // A pane is at least as tall as its input box and a line.
    return [...transcript, ...box].slice(-Math.max(rows, box.length + 1)).join('\n');
  });

describe('the guard before typing, over generated screens', () => {
  it('never lets a line be typed into a screen that shows a dialog', () => {
    fc.assert(
      fc.property(dialogScreen, ({ screen }) => {
        expect(notAtInput(screen)).not.toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it('lets a line into a plain input box', () => {
    fc.assert(
      fc.property(inputScreen, (screen) => {
        expect(notAtInput(screen)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("marks a Claude Code dialog's subject cut when its top is out of sight, and only then", () => {
    fc.assert(
      fc.property(dialogScreen, ({ screen, kind, scrolled, topInSight }) => {
        const p = readPrompt(screen);
        if (kind !== 'claude' || !p) return;
        if (scrolled) expect(p.subject[0]).toBe(CUT_MARK);
        if (topInSight) expect(p.cut).toBeUndefined();
        else if (screen.split('\n').filter((l) => l.trim() !== '').length >= 40) expect(p.subject[0]).toBe(CUT_MARK);
      }),
      { numRuns: 2000 },
    );
  });
});
