/**
 * Running the real `tower` binary in tests: bin/tower.js and a bundle of the current source, built
 * into a temp dir laid out like the repo (bin/ next to dist/), so a stale or half-rebuilt dist/ of
 * the working tree can't fool the tests. Plus the harness, SAGE and dotagent projects they act on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import { jsonLines } from './kit.js';

/** The launcher of a bundle of the current source (see test/helpers/built-cli.ts). */
export async function buildTower(): Promise<string> {
  return (await buildCli()).bin;
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** How every tower call of a test is pointed at its fixture. */
export interface CliSetup {
  tower: string;
  home: string;
  /** Global flags: --root …, --claude-dir, -L, --config. */
  flags: string[];
}

function env(home: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    TMUX: '',
    TMUX_PANE: '',
    NO_COLOR: '1',
  };
}

/** Runs `tower <args> <flags>` to completion. */
export async function tower(s: CliSetup, args: string[]): Promise<CliResult> {
  const r = await execa('node', [s.tower, ...args, ...s.flags], {
    reject: false,
    env: env(s.home),
    extendEnv: true,
    stdin: 'ignore',
    timeout: 20_000,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** Starts `tower <args> <flags>` and returns the running process (for watch). */
export function spawnTower(
  s: CliSetup,
  args: string[],
): ResultPromise<{ reject: false; stdin: 'ignore'; extendEnv: true; env: NodeJS.ProcessEnv }> {
  return execa('node', [s.tower, ...args, ...s.flags], {
    reject: false,
    stdin: 'ignore',
    extendEnv: true,
    env: env(s.home),
  });
}

/** The events a running `tower watch` has printed so far, parsed (call the getter again for more). */
export function watchEvents(proc: ReturnType<typeof spawnTower>): () => Record<string, unknown>[] {
  let out = '';
  proc.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
  return () => jsonLines(out);
}

/** A config file with short waits. */
export function fastConfig(home: string, over: Record<string, unknown> = {}): string {
  const file = path.join(home, 'tower-config.json');
  writeFile(file, {
    checkpointTimeoutSec: 2,
    stragglerAfterSec: 0.5,
    killGraceSec: 0.5,
    rehydrateTimeoutSec: 3,
    pollIntervalMs: 200,
    ...over,
  });
  return file;
}

/** A harness project with `plan-approval` pending: `<dir>/.harness/checkpoint-plan-approval.md`. */
export function harnessProject(dir: string): string {
  writeFile(path.join(dir, '.harness', 'config.json'), {
    checkpoints: { enabled: true, types: [{ name: 'plan-approval', triggerOn: 'post-planner' }] },
  });
  writeFile(
    path.join(dir, '.harness', 'checkpoint-plan-approval.md'),
    '# Checkpoint: plan-approval (auto, triggerOn=post-planner)\n\nRequested at: 2026-05-08T12:00:00Z\nTrigger: scoper + reviewer both passed.\n\n## How to grant\n- touch it\n',
  );
  return path.join(dir, '.harness');
}

/** A SAGE project whose epic waits at the human gate. */
export function sageProject(dir: string): string {
  const stateDir = path.join(dir, '.sage', 'state');
  writeFile(path.join(stateDir, 'EPIC-7.json'), {
    version: '1.0',
    created: '2026-05-08T08:00:00Z',
    updated: '2026-05-08T12:00:00Z',
    epic: { id: 'EPIC-7', status: 'in_progress', stories_total: 4, stories_complete: 1 },
    current: { story_id: '7-2', task_index: 2, task_total: 5, step: 'plan', retry_count: 0 },
    next_action: { type: 'hitl', description: 'Approve the plan for story 7-2' },
  });
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(stateDir, 'EPIC-7.json'), old, old);
  return stateDir;
}

/** A dotagent workflow whose ARCHITECTURE phase awaits approval. */
export function dotagentProject(dir: string): string {
  const stateDir = path.join(dir, 'memory', 'state');
  writeFile(path.join(dir, 'memory', 'reports', 'demand.json'), { ok: true });
  writeFile(path.join(dir, 'memory', 'reports', 'final_design.json'), { ok: true });
  writeFile(path.join(stateDir, 'phase.json'), {
    workflow_id: 'wf-auth',
    started_at: '2026-01-16T09:00:00Z',
    last_updated: '2026-01-16T09:55:00Z',
    current_phase: 'IMPLEMENTATION',
    phase_status: 'pending',
    completed_phases: [
      { phase: 'REQUIREMENTS', completed_at: '2026-01-16T09:20:00Z', output: 'memory/reports/demand.json' },
      { phase: 'ARCHITECTURE', completed_at: '2026-01-16T09:55:00Z', output: 'memory/reports/final_design.json' },
    ],
    user_checkpoints: [{ phase: 'REQUIREMENTS', approved_at: '2026-01-16T09:21:00Z' }],
    interruption_safe: true,
    extra_key: { kept: true },
  });
  return stateDir;
}
