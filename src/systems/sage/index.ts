/** SAGE: `.sage/state/` with its signal files; the human gate is answered in `.resume-signal`. */
import type { SystemModule } from '../module.js';
import { ORCHESTRATOR_LOG } from './answer.js';
import { sageGrant } from './grant.js';
import { readSageRun } from './read.js';

export const sage: SystemModule = {
  system: 'sage',
  badge: 'sage',
  label: 'SAGE',
  plural: 'SAGE runs',
  markers: ['.sage/state'],
  readRun: (root, stateDir, _teams, settings) => ({ run: readSageRun(root, stateDir, settings), teamNames: [] }),
  mergesTeams: false,
  // The orchestrator's log: where an answer lives on once .resume-signal is read and deleted.
  watchFiles: [ORCHESTRATOR_LOG],
  rootRegistry: null,
  teams: null,
  cycle: null,
  grant: sageGrant,
  requests: null,
};
