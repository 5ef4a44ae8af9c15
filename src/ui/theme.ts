/**
 * Colours by meaning. With colour off (NO_COLOR, --no-color) every tone is plain text: the screen
 * then relies on the words and symbols each view always prints ("[ESC]", "alive", ">").
 */
/** What a piece of text means, not how it looks. */
export const TONES = ['plain', 'dim', 'amber', 'red', 'green', 'accent', 'title', 'key'] as const;
export type Tone = (typeof TONES)[number];

/** The ink Text props a tone turns into. */
export interface TextStyle {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
  inverse?: boolean;
  backgroundColor?: string;
}

const COLOURED: Record<Tone, TextStyle> = {
  plain: {},
  dim: { dimColor: true },
  // Checkpoints, approvals and the context gauge are amber; escalations are red: never alike.
  amber: { color: 'yellow' },
  red: { color: 'red', bold: true },
  green: { color: 'green' },
  accent: { color: 'cyan' },
  title: { bold: true },
  key: { color: 'cyan', bold: true },
};

/** How the screen is styled. */
export interface Theme {
  color: boolean;
  style(tone: Tone): TextStyle;
  /** The style of the selected row in a focused pane. */
  selected: TextStyle;
}

/** A theme; `color` false gives no escape codes at all. */
export function createTheme(color: boolean): Theme {
  return {
    color,
    style: (tone) => (color ? COLOURED[tone] : {}),
    // A background rather than inverse video: inverse turns the gauge's █ blocks into holes.
    selected: color ? { backgroundColor: '#334155' } : {},
  };
}
