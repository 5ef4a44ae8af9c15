/** Small formatters for the screen: ages, durations, the context gauge. Pure. */

/** How long ago `iso` was, coarse: `12s`, `12m`, `3h`, `2d`; `?` when unknown or unparseable. */
export function age(iso: string | null | undefined, nowMs: number): string {
  if (!iso) return '?';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '?';
  const s = Math.max(0, Math.floor((nowMs - t) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.floor(h / 24)}d`;
}

/** A duration as a clock: `0:42`, `5:00`, `1:02:03`. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Local time of day `14:03:22` for an ISO time, or `--:--:--`. */
export function timeOfDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '--:--:--';
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

const GAUGE_CELLS = 5;
/** Cells the gauge takes: the bar, the percentage and the over-threshold mark (`▕███░░▏72%!`). */
export const GAUGE_WIDTH = GAUGE_CELLS + 2 + 4 + 1;

/** The context gauge `▕███░░▏72%`, with `!` when at or over the threshold. */
export function gauge(usedPct: number, threshold: number | null): { text: string; over: boolean } {
  const pct = Math.max(0, Math.min(100, Math.round(usedPct)));
  const filled = Math.round((pct / 100) * GAUGE_CELLS);
  const over = threshold !== null && pct >= threshold;
  return { text: `▕${'█'.repeat(filled)}${'░'.repeat(GAUGE_CELLS - filled)}▏${pct}%${over ? '!' : ''}`, over };
}
