/** The screen's memo: each part of the screen drawn again only when what it is drawn from changed. Pure. */

/**
 * Keeps what each part of the screen was last drawn from and the lines it gave. A part is a pane
 * function of one props object: it is drawn again only when some field of that object is another
 * value (Object.is), so what a pane reads is what it is kept on, and nothing it reads goes stale.
 */
export class ScreenMemo {
  private slots = new Map<string, { pane: unknown; props: object; value: unknown }>();

  /** `pane(props)`, or what it gave last time under `key` when `props` has the same fields. */
  draw<P extends object, T>(key: string, pane: (props: P) => T, props: P): T {
    const slot = this.slots.get(key);
    if (slot && slot.pane === pane && sameFields(slot.props, props)) return slot.value as T;
    const value = pane(props);
    this.slots.set(key, { pane, props, value });
    return value;
  }
}

/** Whether two props objects have the same fields holding the same values. */
function sameFields(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (!Object.is(x[k], y[k]) || !Object.hasOwn(y, k)) return false;
  return true;
}
