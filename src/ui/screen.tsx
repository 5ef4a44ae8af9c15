/**
 * The whole screen for one state, painted straight to the terminal: React holds the state and
 * re-renders on its changes; the screen's rows are worked out from it (screen-blocks.ts), only the
 * parts whose inputs changed drawn again, and written as one frame to ink's stdout, which is the
 * painter in a session (it writes only the rows that differ) and the frame list in tests. ink
 * itself draws nothing: it reads the keys.
 */
import { useStdout } from 'ink';
import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { PaneLooks } from '../store/captures.js';
import { FrameComposer } from './frame-compose.js';
import type { ScreenInput } from './screen-blocks.js';
import { gatesResolution, screenBlocks, teamResolution } from './screen-blocks.js';
import { ScreenMemo } from './screen-memo.js';
import { useTheme } from './theme-context.js';
import type { Theme } from './theme.js';

export { dialogOverlay, helpOverlay } from './screen-blocks.js';

/**
 * Everything the screen draws: what its blocks are drawn from, less what it works out itself (the
 * ages' clocks, from the model's time) or reads (the captures).
 */
export type ScreenProps = Omit<ScreenInput, 'gatesNow' | 'teamNow' | 'look' | 'color'> & {
  /** Pane captures for the preview (null: none). */
  watch?: PaneLooks | null | undefined;
  /** The model's time, rounded to the finest age shown (model/tick.ts). */
  now: number;
};

const noSubscribe = () => () => {};
const zero = () => 0;

/** The screen: draws nothing through ink, writes its frame to ink's stdout after each render. */
export function Screen(p: ScreenProps) {
  const theme = useTheme();
  const { stdout } = useStdout();
  const watch = p.watch ?? null;
  // A new capture of a pane redraws the preview.
  useSyncExternalStore(watch?.subscribe ?? noSubscribe, watch?.getVersion ?? zero);
  const at = (resolution: number) => Math.floor(p.now / resolution) * resolution;
  const coarse = at(60_000);
  const gatesNow = at(gatesResolution(p.view.run, coarse));
  // Time in each member's state moves with the clock, each second while it reads in seconds.
  const teamNow = at(teamResolution(p.view.run, coarse));
  const kept = useRef<{ theme: Theme; memo: ScreenMemo; composer: FrameComposer; written: string | null } | null>(null);
  if (kept.current?.theme !== theme)
    kept.current = { theme, memo: new ScreenMemo(), composer: new FrameComposer(theme), written: null };
  const { memo, composer } = kept.current;
  const { blocks, height } = screenBlocks(
    {
      ...p,
      gatesNow,
      teamNow,
      look: watch ? (m, run) => watch.lookOf(m, run) : undefined,
      previewNote: watch?.previewNote ? (run) => watch.previewNote?.(run) ?? null : undefined,
      color: theme.color,
    },
    memo,
  );
  const frame = composer.compose(blocks, p.layout.width, height).join('\n');
  useLayoutEffect(() => {
    const k = kept.current;
    // A render that changed nothing on screen (a clock tick of a pane not shown) writes nothing.
    if (!k || k.written === frame) return;
    k.written = frame;
    stdout.write(frame);
  });
  return null;
}
