/**
 * The checkpoint harness: `.harness/` (or `.papercusp/`) with named checkpoint files and their `.granted`
 * sentinels.
 */
import type { SystemModule } from '../module.js';
import { harnessGrant } from './grant.js';
import { planRequest } from './request.js';
import { readHarnessSource } from './read.js';

export const harness: SystemModule = {
  system: 'harness',
  badge: 'harness',
  label: 'harness',
  plural: 'harness runs',
  markers: ['.harness', '.papercusp'],
  readRun: (root, stateDir, _teams, settings) => readHarnessSource(root, stateDir, settings),
  mergesTeams: false,
  watchFiles: [],
  rootRegistry: null,
  teams: null,
  cycle: null,
  grant: harnessGrant,
  // The run of a request loads as it runs: every start path reads systems, none requests a checkpoint.
  requests: { plan: planRequest, run: async (x, d) => (await import('./request-run.js')).runRequest(x, d) },
};
