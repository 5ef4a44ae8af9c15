/**
 * What the demo's Codex, opencode and Gemini CLI stand-ins draw, line for line as the real CLIs drew
 * them in the captures (test/fixtures/codex-0.169.0/screens/, opencode-1.18.33/screens/,
 * gemini-cli-0.61.0/screens/): the input box, the line a turn in progress shows, the permission
 * dialog and what each prints once it is answered. Pure: a screen is its lines for a state and a width.
 */

/** The CLIs drawn here. */
export type StandInCli = 'codex' | 'opencode' | 'gemini';

/** What the stand-in is doing: at its input box, in a turn, or at its permission dialog. */
export type StandInPhase = 'idle' | 'working' | 'asking';

/** Everything a screen is drawn from. */
export interface StandInState {
  phase: StandInPhase;
  /** The folder it works in (Codex and Gemini print it). */
  cwd: string;
  /** The conversation so far, as printed lines. */
  transcript: readonly string[];
  /** What is typed in the input box. */
  typed: string;
  /** Seconds the turn has run (the working line counts them). */
  seconds: number;
  /** The command the dialog asks to run. */
  command: string;
  /** Why (Codex prints the model's justification). */
  reason: string;
  /** opencode's selected option, 0–2 (shown only in colour, as opencode does). */
  selected: number;
}

/** The narrowest a screen is drawn. */
const MIN_WIDTH = 40;

/** The words of `text` in lines of at most `width` cells; a longer word is cut. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    for (let w = word; w.length > 0; w = w.slice(width)) {
      const piece = w.slice(0, width);
      if (line === '') line = piece;
      else if (line.length + 1 + piece.length <= width) line = `${line} ${piece}`;
      else {
        lines.push(line);
        line = piece;
      }
    }
  }
  return [...lines, line];
}

/** A choice drawn as `<lead><n>. <label>`, its wrapped lines indented under the label. */
function choice(lead: string, n: number, label: string, width: number): string[] {
  const at = lead.length + `${n}. `.length;
  return wrapWords(label, Math.max(10, width - at)).map((l, i) =>
    i === 0 ? `${lead}${n}. ${l}` : `${' '.repeat(at)}${l}`,
  );
}

// ── Codex 0.169.0 ─────────────────────────────────────────────────────────────────────────────

/** The model line Codex prints under its box. */
export const CODEX_MODEL = 'gpt-5.1-codex';

/** Codex's lines: the header, the conversation, and at the bottom the box, the working line or the dialog. */
export function codexScreen(s: StandInState, width: number): { top: string[]; bottom: string[] } {
  const w = Math.max(MIN_WIDTH, width);
  const top = ['', '  >_ OpenAI Codex (v0.169.0)', `     ${s.cwd}`, '', ...s.transcript];
  if (s.phase === 'asking') {
    return {
      top: [...top, '', `• Running ${s.command}`],
      bottom: [
        '',
        '  Would you like to run the following command?',
        '',
        '  Environment: local',
        '',
        `  Reason: ${s.reason}`,
        '',
        `  $ ${s.command}`,
        '',
        '',
        ...choice('› ', 1, 'Yes, proceed (y)', w),
        ...choice('  ', 2, `Yes, and don't ask again for commands that start with \`${s.command}\` (p)`, w),
        ...choice('  ', 3, 'No, and tell Codex what to do differently (esc)', w),
        '',
        '  Press enter to confirm or esc to cancel',
      ],
    };
  }
  const working = s.phase === 'working' ? ['', `• Working (${s.seconds}s • esc to interrupt)`] : [];
  return {
    top,
    bottom: [
      ...working,
      '',
      `› ${s.typed || 'Ask Codex to do anything'}`,
      '',
      `  ${CODEX_MODEL} default · ${s.cwd}`.slice(0, w),
      '  ← for agents · ? for shortcuts',
    ],
  };
}

/** What Codex prints once its dialog is answered: approved (the command ran) or cancelled. */
export function codexAnswered(command: string, approved: boolean, always: boolean): string[] {
  if (!approved)
    return [
      `✗ You canceled the request to run ${command}`,
      '',
      '■ Conversation interrupted - use /feedback if something went wrong',
    ];
  return [
    always
      ? `✔ You approved codex to always run commands that start with ${command}`
      : `✔ You approved codex to run ${command} this time`,
    '',
    `• Ran ${command}`,
    '  └ (no output)',
  ];
}

// ── opencode 1.18.33 ──────────────────────────────────────────────────────────────────────────

/** opencode's options, in the order it draws them. */
export const OPENCODE_OPTIONS = ['Allow once', 'Allow always', 'Reject'] as const;
/** The agent and model line under its input box. */
export const OPENCODE_MODEL_LINE = 'Build · Stand-in model Stand-in';

/** opencode's lines: the conversation, and at the bottom its input box or its permission dialog. */
export function opencodeScreen(s: StandInState, width: number): { top: string[]; bottom: string[] } {
  const w = Math.max(MIN_WIDTH, width);
  const top = s.transcript.map((l) => `  ${l}`);
  if (s.phase === 'asking') {
    // The selected option shows only in colour, on a background of its own, as opencode draws it.
    const options = OPENCODE_OPTIONS.map((o, i) =>
      i === s.selected ? `\u001b[48;5;141m\u001b[30m ${o} \u001b[0m` : ` ${o} `,
    ).join(' ');
    const hint = '  ⇆ select  enter confirm';
    const plainLength = 2 + 3 + OPENCODE_OPTIONS.join('   ').length + 2;
    return {
      top: [...top, '', `     $ ${s.command}`, '     ▣  Build · Stand-in model'],
      bottom: [
        '  ┃',
        '  ┃  △ Permission required',
        '  ┃    # Shell command',
        '  ┃',
        `  ┃  $ ${s.command}`,
        '  ┃',
        '  ┃',
        `  ┃  ${options}${plainLength + hint.length + 4 <= w ? `    ${hint}` : ''}`,
        '',
      ],
    };
  }
  const footer = s.phase === 'working' ? '   ■⬝⬝⬝⬝⬝⬝⬝  esc interrupt' : '';
  return {
    top,
    bottom: [
      '  ┃',
      `  ┃  ${s.typed || 'Ask anything… "What is the tech stack of this project?"'}`,
      '  ┃',
      `  ┃  ${OPENCODE_MODEL_LINE}`,
      `  ╹${'▀'.repeat(Math.max(10, w - 4))}`,
      footer,
    ],
  };
}

/** What opencode prints once its dialog is answered. */
export function opencodeAnswered(command: string, option: number): string[] {
  if (option === 2) return ['', '  ┃  ✗ Rejected permission to run the command', ''];
  return ['', `  ┃  $ ${command}`, '  ┃', '  ┃  (no output)', ''];
}

// ── Gemini CLI 0.61.0 ─────────────────────────────────────────────────────────────────────────

/** Gemini CLI's lines: the banner, the conversation, its dialog box, its input box and footer. */
export function geminiScreen(s: StandInState, width: number): { top: string[]; bottom: string[] } {
  const w = Math.max(MIN_WIDTH, width);
  const top = [
    ' ▝▜▄     Gemini CLI v0.61.0',
    '   ▝▜▄',
    '  ▗▟▀    Authenticated with gemini-api-key /auth',
    ' ▝▀',
    '',
    ...s.transcript,
  ];
  const footer = [` workspace (/directory)`, ` ${s.cwd}`.slice(0, w)];
  if (s.phase === 'asking') {
    const inner = w - 4;
    const row = (text: string) => `│ ${text.slice(0, inner).padEnd(inner)} │`;
    const innerBox = inner - 4;
    return {
      top: [...top, '✦ Running it.'],
      bottom: [
        `╭${'─'.repeat(w - 2)}╮`,
        row(`? Shell  ${s.command}`),
        row(`╭${'─'.repeat(innerBox + 2)}╮`),
        row(`│ ${s.command.slice(0, innerBox).padEnd(innerBox)} │`),
        row(`╰${'─'.repeat(innerBox + 2)}╯`),
        row('Allow execution of [Shell]?'),
        row(''),
        row('● 1. Allow once'),
        row('  2. Allow for this session'),
        row('  3. No, suggest changes (esc)'),
        `╰${'─'.repeat(w - 2)}╯`,
      ],
    };
  }
  const spinner = s.phase === 'working' ? [` ⠋ Thinking it over (esc to cancel, ${s.seconds}s)`] : [''];
  return {
    top,
    bottom: [
      ...spinner,
      '─'.repeat(w),
      ' Shift+Tab to accept edits',
      '▄'.repeat(w),
      ` >   ${s.typed || 'Type your message or @path/to/file'}`,
      '▀'.repeat(w),
      ...footer,
    ],
  };
}

/** What Gemini CLI prints once its dialog is answered (a digit: 1 once, 2 this session, 3 no). */
export function geminiAnswered(command: string, option: number): string[] {
  if (option === 3) return ['✕ Request cancelled.'];
  return [`✓  Shell ${command}`, ''];
}

/** The user's line as each CLI prints it in the conversation. */
export function userLine(cli: StandInCli, text: string): string[] {
  if (cli === 'codex') return ['', `› ${text}`, ''];
  if (cli === 'opencode') return ['┃', `┃  ${text}`, '┃'];
  return [`▄▄▄`, ` > ${text}`, `▀▀▀`];
}

/** The agent's reply line as each CLI prints it. */
export function replyLine(cli: StandInCli, text: string): string[] {
  if (cli === 'codex') return ['', `• ${text}`];
  if (cli === 'opencode') return ['', `   ${text}`];
  return [`✦ ${text}`];
}

/**
 * The whole screen, `rows` high: the bottom block at the bottom, the conversation above it (its
 * oldest lines cut when it does not fit).
 */
export function screenLines(parts: { top: string[]; bottom: string[] }, rows: number): string[] {
  const room = Math.max(0, rows - parts.bottom.length);
  const top = parts.top.slice(-room);
  return [...top, ...Array<string>(room - top.length).fill(''), ...parts.bottom];
}
