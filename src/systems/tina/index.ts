/** tina: a worktree's `.claude/tina/` (or older `.tina/`), merged with the Claude Code teams it names. */
import type { SystemModule } from '../module.js';
import { tinaCycle } from './cycle.js';
import { readTinaRun, readTinaSessions } from './read.js';

export const tina: SystemModule = {
  system: 'tina',
  badge: 'tina',
  label: 'tina',
  plural: 'tina runs',
  markers: ['.claude/tina', '.tina'],
  readRun: readTinaRun,
  mergesTeams: true,
  watchFiles: [],
  rootRegistry: { dir: 'tina-sessions', read: readTinaSessions },
  teams: null,
  cycle: tinaCycle,
  grant: null,
  requests: null,
};
