/** The registry: one module per system in the contract, and what the store derives from it. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEMS } from '../../src/model/model.js';
import { MARKER_NAMES, sourcesOfRoot } from '../../src/store/discover.js';
import { SYSTEM_MODULES, runsOf, stateDirMarkers, systemOf, teamModule } from '../../src/systems/registry.js';
import { SYSTEM_BADGE } from '../../src/ui/panes/words.js';
import { tempDir, writeFile } from '../helpers/box.js';

describe('the system registry', () => {
  it('has exactly one module for every system of the contract, in the contract order', () => {
    expect(SYSTEM_MODULES.map((m) => m.system)).toEqual([...SYSTEMS]);
    for (const s of SYSTEMS) expect(systemOf(s).system).toBe(s);
  });

  it('has one team reader, the agents of projects made from panes, and every other module reads state directories behind markers', () => {
    expect(teamModule().system).toBe('claude-team');
    // Agents of a project are listed from the pane listing (src/store/lone-agents.ts), not read from files.
    expect(systemOf('agents')).toMatchObject({ markers: [], readRun: null, cycle: null, grant: null, requests: null });
    for (const m of SYSTEM_MODULES.filter((x) => x.teams === null && x.system !== 'agents')) {
      expect(m.readRun, m.system).not.toBeNull();
      expect(m.markers.length, m.system).toBeGreaterThan(0);
    }
  });

  it('gives the badges, markers and capability lists the store and the UI show', () => {
    expect(SYSTEM_BADGE).toEqual({
      tina: 'tina',
      'claude-team': 'claude',
      harness: 'harness',
      sage: 'sage',
      dotagent: 'dotagent',
      agents: 'agents',
    });
    expect(stateDirMarkers().map((m) => m.dir)).toEqual([
      '.claude/tina',
      '.tina',
      '.harness',
      '.papercusp',
      '.sage/state',
      'memory/state',
    ]);
    expect(MARKER_NAMES).toHaveLength(6);
    expect(runsOf((m) => m.requests !== null)).toBe('harness runs');
    expect(runsOf((m) => m.cycle !== null)).toBe('tina runs and Claude Code teams');
    expect(runsOf((m) => m.grant !== null)).toBe('harness runs, SAGE runs and dotagent runs');
  });

  it('finds the state directories of a root in registry order, whatever order they were made in', () => {
    const root = tempDir('tower-registry-');
    try {
      for (const d of ['memory/state', '.sage/state', '.harness', '.tina', '.claude/tina'])
        writeFile(path.join(root, d, '.keep'), '');
      expect(sourcesOfRoot(root, SYSTEM_MODULES).map((s) => [s.system, path.relative(root, s.stateDir)])).toEqual([
        ['tina', '.claude/tina'],
        ['tina', '.tina'],
        ['harness', '.harness'],
        ['sage', '.sage/state'],
        ['dotagent', 'memory/state'],
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
