import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTinaRun } from '../../src/systems/tina/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { removeAfterFile } from '../helpers/leftovers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function project(): { root: string; state: string } {
  const root = removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-tina-esc-')));
  dirs.push(root);
  const state = path.join(root, '.claude', 'tina');
  fs.mkdirSync(path.join(state, 'phase-1'), { recursive: true });
  fs.writeFileSync(
    path.join(state, 'supervisor-state.json'),
    JSON.stringify({ feature: 'esc', total_phases: 2, current_phase: 1, status: 'executing', phases: {} }),
  );
  return { root, state };
}

const settings = { ...DEFAULT_READ_SETTINGS, now: Date.now() };

describe('the escalation tower writes when a checkpoint times out', () => {
  it('is a red, ungrantable gate and blocks the run', () => {
    const { root, state } = project();
    fs.writeFileSync(
      path.join(state, 'tower-escalation.json'),
      '{"reason":"no handoff within 300 s","at":"2026-11-22T03:00:00.000Z","action":"checkpoint"}\n',
    );
    const { run } = readTinaRun(root, state, [], settings);
    const gate = run.gates.find((g) => g.id === 'checkpoint-timeout');
    expect(gate).toMatchObject({
      kind: 'escalation',
      state: 'pending',
      grantable: false,
      since: '2026-11-22T03:00:00.000Z',
    });
    expect(gate?.title).toContain('no handoff within 300 s');
    expect(run.status).toBe('blocked');
  });

  it('is resolved by a handoff written after it', () => {
    const { root, state } = project();
    const esc = path.join(state, 'tower-escalation.json');
    fs.writeFileSync(esc, '{"reason":"late"}\n');
    fs.utimesSync(esc, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    fs.writeFileSync(
      path.join(state, 'phase-1', 'handoff.md'),
      '# Phase 1 Handoff\n\n## Timestamp\n2026-11-22T03:01:00Z\n',
    );
    const { run } = readTinaRun(root, state, [], settings);
    expect(run.gates.some((g) => g.id === 'checkpoint-timeout')).toBe(false);
    expect(run.status).toBe('running');
  });

  it('still shows when its file is garbled, with a problem', () => {
    const { root, state } = project();
    fs.writeFileSync(path.join(state, 'tower-escalation.json'), '{"reason": "cut o');
    const { run } = readTinaRun(root, state, [], settings);
    expect(run.gates.find((g) => g.id === 'checkpoint-timeout')?.title).toContain('checkpoint timed out');
    expect(run.problems.some((p) => p.file?.endsWith('tower-escalation.json'))).toBe(true);
  });
});
