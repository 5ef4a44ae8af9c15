/** Sizes on the screen, shared by the layout, the frames and the panes. */

/** Width and height in cells, borders included. */
export interface Rect {
  width: number;
  height: number;
}
