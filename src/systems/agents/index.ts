/**
 * Agents of a project: an agent CLI in a pane outside every system's run, listed as a run of the
 * folder it works in. Its runs are made by the store from the pane listing
 * (src/store/lone-agents.ts), not read from state directories, so it has no markers, no reader and
 * no checkpoint cycle.
 */
import type { SystemModule } from '../module.js';

export const agents: SystemModule = {
  system: 'agents',
  badge: 'agents',
  label: 'agents of a project',
  plural: 'agents of projects',
  markers: [],
  readRun: null,
  mergesTeams: false,
  watchFiles: [],
  rootRegistry: null,
  teams: null,
  cycle: null,
  grant: null,
  requests: null,
};
