/** A framed box drawn over the screen, centred: dialogs and the help overlay. */

/** Where an overlay goes and how big its body may be. */
export interface OverlayBox {
  width: number;
  height: number;
  top: number;
  left: number;
  /** Body lines that fit inside (frame and one-cell padding excluded). */
  bodyWidth: number;
  bodyHeight: number;
}

/** The box for a body of `lines` lines on a `screenW` × `screenH` screen, at most `maxWidth` wide. */
export function overlayBox(screenW: number, screenH: number, lines: number, maxWidth: number): OverlayBox {
  const width = Math.max(10, Math.min(screenW - 2, maxWidth));
  const height = Math.max(3, Math.min(screenH - 2, lines + 2));
  return {
    width,
    height,
    top: Math.max(0, Math.floor((screenH - height) / 2)),
    left: Math.max(0, Math.floor((screenW - width) / 2)),
    bodyWidth: width - 4,
    bodyHeight: height - 2,
  };
}
