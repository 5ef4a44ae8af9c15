/**
 * How tower reaches a tina run's lead: the current phase's team (`<feature>-phase-<N>`, older
 * `phase-<N>-execution`), its tmux session `tina-<feature>-phase-<N>`, and the files the checkpoint
 * cycle compares and writes in the state directory.
 */
import path from 'node:path';
import type { Run } from '../../model/model.js';
import type { CycleFiles, CycleWay } from '../module.js';

/** A phase name that is safe as a path segment. */
const PHASE_SEGMENT = /^[A-Za-z0-9_.-]+$/;

/**
 * The tmux session tina runs a phase's team lead in: tina turns the dots of the phase into `_`
 * (`tina-auth-phase-1_5`, tina-session src/session/naming.rs) and tmux itself those of the feature.
 */
export function phaseSessionName(feature: string, phase: string): string {
  return `tina-${feature.replace(/\./g, '_')}-phase-${phase.replace(/\./g, '_')}`;
}

/**
 * The names a run's current phase team goes by: `<feature>-phase-<N>` (a remediation `N.5` also by its
 * folder name `<feature>-phase-N-5`), older `phase-<N>-execution`.
 */
export function phaseTeamNames(run: Run): string[] {
  if (!run.phase) return [];
  const n = run.phase.current;
  const names = [`${run.name}-phase-${n}`, `phase-${n}-execution`];
  if (n.includes('.')) names.push(`${run.name}-phase-${n.replace(/\./g, '-')}`);
  return names;
}

/**
 * `<stateDir>/phase-<N>/handoff.md` for the run's current phase, or null when the phase is unknown or not a
 * plain name.
 */
export function handoffPathFor(stateDir: string, run: Run): string | null {
  const phase = run.phase?.current;
  if (!phase || !PHASE_SEGMENT.test(phase) || phase === '.' || phase === '..') return null;
  return path.join(stateDir, `phase-${phase}`, 'handoff.md');
}

function cycleFiles(stateDir: string, run: Run): CycleFiles {
  return {
    signalFile: path.join(stateDir, 'checkpoint-needed'),
    handoffFile: handoffPathFor(stateDir, run),
    escalationFile: path.join(stateDir, 'tower-escalation.json'),
  };
}

export const tinaCycle: CycleWay = {
  commands: 'tina',
  workingTeams: phaseTeamNames,
  leadSession: (run) => (run.phase ? phaseSessionName(run.name, run.phase.current) : null),
  files: cycleFiles,
  autoOnContext: true,
};
