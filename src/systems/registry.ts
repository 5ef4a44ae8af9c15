/**
 * Every system tower reads, in the order their runs are discovered. The store, the actions and the
 * UI loop over this list; adding a system is a folder with its module and one line here.
 */
import type { System } from '../model/model.js';
import { agents } from './agents/index.js';
import { claudeTeams } from './claude-teams/index.js';
import { dotagent } from './dotagent/index.js';
import { harness } from './harness/index.js';
import type { SystemModule, TeamReaders } from './module.js';
import { sage } from './sage/index.js';
import { tina } from './tina/index.js';

export const SYSTEM_MODULES: readonly SystemModule[] = [tina, claudeTeams, harness, sage, dotagent, agents];

const BY_SYSTEM = new Map<System, SystemModule>(SYSTEM_MODULES.map((m) => [m.system, m]));

/** The module of a system named in the contract. */
export function systemOf(system: System): SystemModule {
  const m = BY_SYSTEM.get(system);
  // why: every name in SYSTEMS has a module; a missing one is a programming error caught by the registry test.
  if (!m) throw new Error(`no system module for "${system}"`);
  return m;
}

/** The module that reads Claude Code teams (the one with `teams`). */
export function teamModule(modules: readonly SystemModule[] = SYSTEM_MODULES): SystemModule & { teams: TeamReaders } {
  const m = modules.find((s) => s.teams !== null);
  if (!m?.teams) throw new Error('no system module reads Claude Code teams');
  return { ...m, teams: m.teams };
}

/** Every state directory marker, with its system, in registry order. */
export function stateDirMarkers(modules: readonly SystemModule[] = SYSTEM_MODULES): { system: System; dir: string }[] {
  return modules.flatMap((m) => m.markers.map((dir) => ({ system: m.system, dir })));
}

/** "tina runs and Claude Code teams": the systems a capability applies to, for messages. */
export function runsOf(has: (m: SystemModule) => boolean, modules: readonly SystemModule[] = SYSTEM_MODULES): string {
  const names = modules.filter(has).map((m) => m.plural);
  if (names.length === 0) return 'no runs';
  return names.length === 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}
