/**
 * tina (seeds 000 and 003): a worktree's state directory, `.claude/tina/` (current) or `.tina/` (before
 * 2026-01-27), merged with the Claude Code teams tina names after the feature. The session registry
 * `~/.claude/tina-sessions/` finds worktrees nobody named.
 */
import path from 'node:path';
import type { Problem, Run } from '../../model/model.js';
import { readJsonFiles } from '../../files/json-dir.js';
import { readTinaFiles } from './files.js';
import { assembleTinaRun } from './run.js';
import { parseSessionEntry } from './state.js';
import type { ReadSettings, Team } from '../types.js';

/** The worktrees registered in `<claudeDir>/tina-sessions/*.json`, as absolute paths (existing or not). */
export function readTinaSessions(claudeDir: string): { roots: string[]; problems: Problem[] } {
  const dir = path.join(claudeDir, 'tina-sessions');
  const roots: string[] = [];
  const problems: Problem[] = [];
  for (const { root } of readJsonFiles(dir, 'session', parseSessionEntry, problems)) {
    if (root !== null && !roots.includes(root)) roots.push(root);
  }
  return { roots, problems };
}

/** Reads one tina run from `stateDir` (`<root>/.claude/tina` or the older `<root>/.tina`). */
export function readTinaRun(
  root: string,
  stateDir: string,
  teams: readonly Team[],
  settings: ReadSettings,
): { run: Run; teamNames: string[] } {
  return assembleTinaRun(root, readTinaFiles(stateDir), teams, settings);
}
