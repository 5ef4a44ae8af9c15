/** Reading loosely typed values out of parsed JSON: objects, timestamps and text. */
import { sanitizeLine } from '../text/sanitize.js';

/** A plain object check for untyped JSON. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A timestamp as ISO: accepts ISO-8601 strings and epoch milliseconds (or seconds, when small).
 * Returns null when the value is absent or unparseable (callers keep the raw value for display).
 */
export function toIso(v: unknown): string | null {
  const ms = toMs(v);
  return ms === null ? null : new Date(ms).toISOString();
}

/** A timestamp as epoch ms, or null. */
export function toMs(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const ms = v < 1e11 ? v * 1000 : v;
    return Number.isFinite(new Date(ms).getTime()) ? ms : null;
  }
  if (typeof v === 'string' && v.trim() !== '') {
    if (/^\d+$/.test(v.trim())) return toMs(Number(v.trim()));
    // Date.parse is lenient ("ISO-8601" parses as the year 8601): accept only date-shaped strings.
    if (!/^\s*\d{4}-\d{2}-\d{2}/.test(v)) return null;
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** A string value as one safe line, trimmed; '' for anything else. */
export function oneLine(v: unknown): string {
  return typeof v === 'string' ? sanitizeLine(v).trim() : '';
}
