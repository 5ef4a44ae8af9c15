/**
 * tina's phase names: whole numbers for the plan's phases, `N.5` for the remediation of a phase that
 * failed review and `N.5.5` for the remediation of that (tina-session: validate_phase and
 * compute_remediation_phase in src/session/naming.rs and src/state/orchestrate.rs).
 */
import type { SupervisorState } from './state.js';

/** A phase name as tina validates it: digits, single dots between them. */
export const PHASE_NAME = /^\d+(?:\.\d+)*$/;

const DONE_WORDS = ['complete', 'completed', 'done'];

/** Orders phase names segment by segment ("2" < "2.5" < "2.5.5" < "3" < "10"); other names last, as text. */
export function comparePhases(a: string, b: string): number {
  const okA = PHASE_NAME.test(a);
  const okB = PHASE_NAME.test(b);
  if (!okA || !okB) return okA === okB ? (a < b ? -1 : a > b ? 1 : 0) : okA ? -1 : 1;
  const sa = a.split('.').map(Number);
  const sb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    const x = sa[i];
    const y = sb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x !== y) return x - y;
  }
  return 0;
}

/**
 * The phase that is running: while a remediation of phase N runs, `current_phase` stays N and the
 * remediation (`phases["N.5"]`, `phases["N.5.5"]`) is the current phase. The deepest remediation of
 * N that is not complete wins; with none, N itself.
 */
export function currentPhaseOf(sup: SupervisorState): string | null {
  const n = sup.currentPhase;
  if (n === null || !PHASE_NAME.test(n)) return n;
  const open = [...sup.phases]
    .filter(
      ([key, entry]) => key.startsWith(`${n}.`) && PHASE_NAME.test(key) && !DONE_WORDS.includes(entry.status ?? ''),
    )
    .map(([key]) => key)
    .sort((a, b) => a.split('.').length - b.split('.').length || comparePhases(a, b));
  return open[open.length - 1] ?? n;
}

/** The phase a team name carries, dots or (in a folder name) dashes between its numbers: "2.5" for `x-phase-2-5`. */
export function phaseOfName(raw: string): string {
  return raw.replace(/-/g, '.');
}
