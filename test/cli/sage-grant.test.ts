/**
 * The danger of SAGE's consumed answer, as an operator meets it with the real binary: the
 * orchestrator has read the approval, deleted `.resume-signal` and logged it
 * (kwg/sage-method bin/orchestrate-v2.sh; fixture test/fixtures/sage/consumed), while `.last_signal`
 * still says HITL_REQUIRED. A second grant would approve the NEXT human gate unseen: it is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SnapshotSchema } from '../../src/model/schema.js';
import type { CliSetup } from '../actions/cli-kit.js';
import { buildTower, fastConfig, tower } from '../actions/cli-kit.js';
import { listing } from '../actions/kit.js';
import { copyFixture, setMtime, tempDirsPerTest } from '../helpers/fixtures.js';
import { uniqueSocketName } from '../helpers/tmux.js';

let bin: string;
beforeAll(async () => {
  bin = await buildTower();
}, 60_000);

const tempDir = tempDirsPerTest('tower-sage-cli-');

/** The consumed fixture as a project `billing`, its gate raised at `raisedAt`; returns the CLI setup and paths. */
function setup(raisedAt: number): { s: CliSetup; root: string; stateDir: string } {
  const base = tempDir();
  const root = path.join(base, 'billing');
  fs.cpSync(copyFixture('sage/consumed', base), root, { recursive: true });
  fs.rmSync(path.join(base, 'consumed'), { recursive: true });
  const logs = path.join(root, '.sage', 'logs');
  fs.renameSync(path.join(logs, 'orchestrator-v2.log.fixture'), path.join(logs, 'orchestrator-v2.log'));
  const stateDir = path.join(root, '.sage', 'state');
  for (const f of fs.readdirSync(stateDir)) setMtime(path.join(stateDir, f), raisedAt);
  const home = tempDir();
  const s = {
    tower: bin,
    home,
    flags: [
      '--root',
      root,
      '--claude-dir',
      path.join(home, '.claude'),
      '-L',
      uniqueSocketName(),
      '--config',
      fastConfig(home),
    ],
  };
  return { s, root, stateDir };
}

describe('tower grant on a SAGE gate whose answer the orchestrator consumed', () => {
  it('is refused (exit 1) and writes nothing; status shows the gate answered, not pending', async () => {
    const { s, root, stateDir } = setup(Date.parse('2026-05-08T12:00:00Z'));
    const before = listing(root);
    const status = await tower(s, ['status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    const run = SnapshotSchema.parse(JSON.parse(status.stdout)).runs.find((r) => r.system === 'sage');
    expect(run?.gates).toEqual([expect.objectContaining({ id: 'hitl', state: 'granted', grantable: false })]);
    expect(run?.status).not.toBe('waiting');

    const grant = await tower(s, ['grant', 'sage:EPIC-9', 'hitl']);
    expect(grant.exitCode).toBe(1);
    expect(grant.stderr).toContain('refused');
    expect(fs.existsSync(path.join(stateDir, '.resume-signal'))).toBe(false);
    expect(listing(root)).toEqual(before);
  });

  it('a HITL signal newer than the logged answer is a new gate: granted once, then refused while unread', async () => {
    const { s, stateDir } = setup(Date.parse('2026-05-08T12:45:00Z'));
    const first = await tower(s, ['grant', 'sage:EPIC-9', 'hitl']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(fs.readFileSync(path.join(stateDir, '.resume-signal'), 'utf8')).toBe('STATUS: APPROVED\n');
    const again = await tower(s, ['grant', 'sage:EPIC-9', 'hitl']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('refused');
  });
});
