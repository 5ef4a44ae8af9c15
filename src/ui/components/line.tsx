/** Draws lines of styled segments. Lines arrive already fitted to their width (see fitLine). */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { Segment, SgrStyle } from '../text/segments.js';
import { useTheme } from '../theme-context.js';
import type { TextStyle } from '../theme.js';

/** A pane's own style as ink Text props (ink draws the SGR again: nothing else passes). */
function sgrProps(s: SgrStyle): TextStyle & { italic?: boolean; underline?: boolean; strikethrough?: boolean } {
  return {
    ...(s.fg ? { color: s.fg } : {}),
    ...(s.bg ? { backgroundColor: s.bg } : {}),
    ...(s.bold ? { bold: true } : {}),
    ...(s.dim ? { dimColor: true } : {}),
    ...(s.italic ? { italic: true } : {}),
    ...(s.underline ? { underline: true } : {}),
    ...(s.inverse ? { inverse: true } : {}),
    ...(s.strike ? { strikethrough: true } : {}),
  };
}

/** One line of the screen. */
export const Line = memo(function Line({ segments }: { segments: readonly Segment[] }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end">
      {segments.map((s, i) => (
        <Text key={i} {...theme.style(s.tone ?? 'plain')} {...(s.sgr && theme.color ? sgrProps(s.sgr) : {})} {...(s.inverse ? theme.selected : {})}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
});

/** A block of lines exactly `width` cells wide. */
export const Lines = memo(function Lines({ lines, width }: { lines: readonly (readonly Segment[])[]; width: number }) {
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {lines.map((l, i) => (
        <Line key={i} segments={l} />
      ))}
    </Box>
  );
});
