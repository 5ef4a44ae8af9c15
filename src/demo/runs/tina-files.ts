/** What every tina run of the sandbox shares: where its files go and how tina names things. */
import path from 'node:path';
import { isoSeconds, writeJsonAtomic } from '../files.js';

/** The state dir of a tina worktree (the current layout). */
export function tinaStateDir(project: string): string {
  return path.join(project, '.claude', 'tina');
}

/** The tmux session tina gives a phase team (`.` in the feature and in the phase becomes `_`). */
export function phaseSession(feature: string, phase: number | string): string {
  return `tina-${feature.replace(/\./g, '_')}-phase-${String(phase).replace(/\./g, '_')}`;
}

/** The tmux session of the orchestration team. */
export function orchestrationSession(feature: string): string {
  return `tina-${feature.replace(/\./g, '_')}-orchestration`;
}

/** The fields that open every supervisor-state.json: version, feature, design doc, worktree and branch. */
export function supervisorHeader(feature: string, project: string): Record<string, unknown> {
  return {
    version: 1,
    feature,
    spec_doc: `docs/plans/2026-${feature}-design.md`,
    worktree_path: project,
    branch: `tina/${feature}`,
  };
}

/** Registers the orchestration in `<claude>/tina-sessions/<feature>.json`, as tina did before 2026-02-08. */
export function writeSessionRegistry(claudeDir: string, feature: string, project: string, createdAt: number): void {
  writeJsonAtomic(path.join(claudeDir, 'tina-sessions', `${feature}.json`), {
    feature,
    worktree_path: project,
    repo_root: project,
    created_at: isoSeconds(createdAt),
  });
}

/** A fake but well-formed git range (`abc1234..def5678`). */
export function gitRange(seed: string): string {
  let h = 0;
  for (const c of seed) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const a = h.toString(16).padStart(8, '0').slice(0, 7);
  const b = ((h * 2654435761) >>> 0).toString(16).padStart(8, '0').slice(0, 7);
  return `${a}..${b}`;
}
