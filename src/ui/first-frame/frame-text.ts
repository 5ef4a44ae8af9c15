/** The opening screen's frame text, composed as the live screen composes its frames. */
import { FrameComposer } from '../frame-compose.js';
import type { Theme } from '../theme.js';
import type { OpeningScreen } from './screen-rows.js';
import { openingScreen } from './screen-rows.js';

/** The opening screen's frame text, as the session's first frame of the same screen will be. */
export function openingFrame(screen: OpeningScreen, theme: Theme): string {
  const { blocks, height } = openingScreen({ ...screen, color: theme.color });
  return new FrameComposer(theme).compose(blocks, screen.columns, height).join('\n');
}
