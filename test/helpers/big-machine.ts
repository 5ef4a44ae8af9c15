/**
 * A big generated machine for benchmarks: many tina runs, each merging a Claude team with many task
 * files, plus runs of every other system. Written to a temp dir with real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tempDir, writeFile } from './box.js';

export interface BigMachine {
  dir: string;
  claudeDir: string;
  tinaRoots: string[];
  /** Harness, SAGE and dotagent roots (to pass as --root). */
  otherRoots: string[];
  taskFiles: number;
  remove(): void;
}

/** Writes `tinaRuns` tina runs × `tasksPerTeam` tasks, and `others` runs of each other system. */
export function buildBigMachine(opts: { tinaRuns?: number; tasksPerTeam?: number; others?: number } = {}): BigMachine {
  const tinaRuns = opts.tinaRuns ?? 50;
  const tasksPerTeam = opts.tasksPerTeam ?? 200;
  const others = opts.others ?? 5;
  const dir = tempDir('tower-big-');
  const claudeDir = path.join(dir, 'claude');
  const tinaRoots: string[] = [];
  const otherRoots: string[] = [];
  const pad = (n: number) => String(n).padStart(2, '0');

  for (let i = 1; i <= tinaRuns; i++) {
    const feature = `feature-${pad(i)}`;
    const root = path.join(dir, 'projects', feature);
    tinaRoots.push(root);
    const state = path.join(root, '.claude', 'tina');
    writeFile(path.join(state, 'supervisor-state.json'), {
      version: 1,
      feature,
      worktree_path: root,
      total_phases: 3,
      current_phase: 2,
      status: 'executing',
      phases: { '1': { status: 'complete' }, '2': { status: 'executing' } },
    });
    writeFile(path.join(state, 'phase-2', 'status.json'), {
      status: 'executing',
      started_at: new Date().toISOString(),
    });
    writeFile(path.join(state, 'context-metrics.json'), { used_pct: i % 90, tokens: 1000 * i, max: 200000 });
    writeFile(path.join(claudeDir, 'tina-sessions', `${feature}.json`), {
      feature,
      worktree_path: root,
      repo_root: root,
    });
    const team = `${feature}-phase-2`;
    writeFile(path.join(claudeDir, 'teams', team, 'config.json'), {
      name: team,
      leadAgentId: 'team-lead',
      members: ['team-lead', 'worker-1', 'worker-2', 'reviewer'].map((name, k) => ({
        name,
        agentId: `${name}-${i}`,
        agentType: k === 0 ? 'team-lead' : 'tina:implementer',
        model: 'claude-sonnet-4',
        tmuxPaneId: `%${1000 + i * 4 + k}`,
        cwd: root,
      })),
    });
    const tasks = path.join(claudeDir, 'tasks', team);
    fs.mkdirSync(tasks, { recursive: true });
    for (let t = 1; t <= tasksPerTeam; t++) {
      const status = t % 3 === 0 ? 'completed' : t % 3 === 1 ? 'in_progress' : 'pending';
      fs.writeFileSync(
        path.join(tasks, `${t}.json`),
        JSON.stringify({
          id: String(t),
          subject: `Task ${t} of ${feature}`,
          description: 'x'.repeat(200),
          status,
          owner: 'worker-1',
          blocks: [],
          blockedBy: t > 1 ? [String(t - 1)] : [],
          metadata: {},
        }),
      );
    }
  }
  for (let i = 1; i <= others; i++) {
    const h = path.join(dir, 'projects', `harness-${pad(i)}`);
    writeFile(path.join(h, '.harness', 'config.json'), {
      checkpoints: { enabled: true, types: [{ name: 'plan-approval', triggerOn: 'post-planner' }] },
    });
    writeFile(
      path.join(h, '.harness', 'checkpoint-plan-approval.md'),
      '# Checkpoint: plan-approval (auto, triggerOn=post-planner)\n\nRequested at: 2026-01-26T12:00:00Z\n',
    );
    const s = path.join(dir, 'projects', `sage-${pad(i)}`);
    writeFile(path.join(s, '.sage', 'state', `EPIC-${pad(i)}.json`), {
      epic: { id: `EPIC-${pad(i)}`, status: 'in_progress' },
      lifecycle: { phase_name: 'BUILD' },
      next_action: { type: 'continue' },
    });
    const d = path.join(dir, 'projects', `dotagent-${pad(i)}`);
    writeFile(path.join(d, 'memory', 'state', 'phase.json'), {
      workflow_id: `wf-${pad(i)}`,
      current_phase: 'IMPLEMENTATION',
      phase_status: 'in_progress',
      last_updated: new Date().toISOString(),
      completed_phases: [],
      user_checkpoints: [],
      interruption_safe: true,
    });
    writeFile(path.join(d, 'memory', 'state', 'execution.json'), {
      tasks: [{ id: 'task-001', status: 'running', attempts: 1 }],
    });
    otherRoots.push(h, s, d);
  }
  return {
    dir,
    claudeDir,
    tinaRoots,
    otherRoots,
    taskFiles: tinaRuns * tasksPerTeam,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
