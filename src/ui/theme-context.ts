/** The theme as React context, for the live screen's components (the first frame needs no React). */
import { createContext, useContext } from 'react';
import { createTheme } from './theme.js';
import type { Theme } from './theme.js';

export const ThemeContext = createContext<Theme>(createTheme(false));

/** The current theme. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
