/**
 * Claude Code agent teams: `<claudeDir>/teams/<team>/config.json` with `tasks/<team>/`, each a run unless
 * another system takes it in.
 */
import type { CycleWay, SystemModule } from '../module.js';
import { teamRun } from './team-run.js';
import { readTeam, readTeams, teamChangedAt } from './teams.js';

/** A team's lead is reached through its own pane; there are no state files to signal or await. */
const teamCycle: CycleWay = {
  commands: 'claude-team',
  workingTeams: () => null,
  leadSession: () => null,
  files: null,
  autoOnContext: false,
};

export const claudeTeams: SystemModule = {
  system: 'claude-team',
  badge: 'claude',
  label: 'Claude Code team',
  plural: 'Claude Code teams',
  markers: [],
  readRun: null,
  mergesTeams: false,
  watchFiles: [],
  rootRegistry: null,
  teams: { readTeams, readTeam, teamRun, teamChangedAt },
  cycle: teamCycle,
  grant: null,
  requests: null,
};
