/**
 * How Codex 0.169.0's screen shows that a step of its own checkpoint cycle took. Pure. `/new` clears
 * the screen down to its header (`>_ OpenAI Codex (v…)` and the folder), at times with its logo
 * drawn in braille below it, then the input box: no line of the conversation is left. `/compact`
 * draws `• Context compacted` where the conversation was (the model having written its handoff
 * summary), then `Worked for …` and the box.
 */
import { codexInputHolds, codexNotAtInput } from './screen.js';

const HEADER = /^\s*>_ OpenAI Codex\b/;
const COMPACTED = /^\s*•\s*Context compacted\b/;
/** A row of its logo: braille and spaces only. */
const LOGO = /^[\s\u2800-\u28ff]*$/;
/** The input box's line. */
const INPUT = /^›\s/;

function lines(plain: string): string[] {
  return plain.split('\n').map((l) => l.trimEnd());
}

/** The line it draws while a turn (a compaction too) runs. */
const WORKING = /^\s*\S?\s*Working \(\d[^)]*\besc to interrupt\)/;
/** A line it begins an item of the conversation with. */
const BULLET = /^\s*•\s/;

/** Whether `typed` has left the input box and the box is at rest (no dialog, no turn). */
function settled(after: string, typed: string): boolean {
  return (
    codexNotAtInput(after) === null && !codexInputHolds(after, typed) && !lines(after).some((l) => WORKING.test(l))
  );
}

/**
 * Whether the conversation restarted: the header is drawn again and nothing but its folder line, its
 * logo and blank rows stands between it and the input box.
 */
export function codexCleared(_before: string, after: string): boolean {
  if (!settled(after, '/new')) return false;
  const rows = lines(after);
  const head = rows.findIndex((l) => HEADER.test(l));
  const box = rows.findLastIndex((l) => INPUT.test(l));
  if (head < 0 || box < head) return false;
  // The line after the header is its folder; then only the logo or blank rows.
  return rows.slice(head + 2, box).every((l) => LOGO.test(l));
}

/**
 * Whether the last item drawn is `• Context compacted`, newly (it was not the last one before, or
 * there are more of them now), and the box is back at rest.
 */
export function codexCompacted(before: string, after: string): boolean {
  const count = (s: string) => lines(s).filter((l) => COMPACTED.test(l)).length;
  const lastIsCompaction = (s: string) => COMPACTED.test(lines(s).findLast((l) => BULLET.test(l)) ?? '');
  return (
    settled(after, '/compact') && lastIsCompaction(after) && (!lastIsCompaction(before) || count(after) > count(before))
  );
}
