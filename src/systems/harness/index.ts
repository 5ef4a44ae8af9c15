/**
 * The checkpoint harness: `.harness/` (or `.papercusp/`) with named checkpoint files and their `.granted`
 * sentinels.
 */
import type { SystemModule } from '../module.js';
import { harnessGrant } from './grant.js';
import { harnessRequests } from './request.js';
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
  requests: harnessRequests,
};
