/** dotagent: `memory/state/` with `phase.json` and `execution.json`; gates are granted in `user_checkpoints`. */
import type { SystemModule } from '../module.js';
import { dotagentGrant } from './grant.js';
import { readDotagentRun } from './read.js';

export const dotagent: SystemModule = {
  system: 'dotagent',
  badge: 'dotagent',
  label: 'dotagent',
  plural: 'dotagent runs',
  markers: ['memory/state'],
  readRun: (root, stateDir, _teams, settings) => ({ run: readDotagentRun(root, stateDir, settings), teamNames: [] }),
  mergesTeams: false,
  watchFiles: [],
  rootRegistry: null,
  teams: null,
  cycle: null,
  grant: dotagentGrant,
  requests: null,
};
