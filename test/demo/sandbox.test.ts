/**
 * The sandbox on a real private tmux server: every system's files in their real shapes, team
 * configs naming the real panes, agents printing in them, tower reading it all, and stop().
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSandbox } from '../../src/demo/sandbox.js';
import { pidAlive } from '../../src/kit/process-tree.js';
import { buildSandbox } from '../../src/demo/sandbox.js';
import { SANDBOX_MARKER } from '../../src/demo/sandbox-dir.js';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { readMarkdown } from '../../src/systems/tina/markdown-reader.js';
import { buildSnapshot } from '../../src/store/snapshot.js';
import { socketFile, TmuxClient } from '../../src/tmux/client.js';
import { testContext } from '../helpers/context.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { buildAgentScript, readObject, removeTempDirs, tempDir, waitForPane } from './support.js';

let sb: DemoSandbox;
let tmux: TmuxClient;

beforeAll(async () => {
  sb = await buildSandbox(tempDir(), { socketName: uniqueSocketName(), agentScript: await buildAgentScript() });
  tmux = new TmuxClient({ name: sb.socketName }, 5000);
});

afterAll(async () => {
  await sb?.stop();
  removeTempDirs();
});

const project = (name: string) => path.join(sb.dir, 'projects', name);
const teamConfig = (team: string) => readObject(path.join(sb.claudeDir, 'teams', team, 'config.json'));

describe('the sandbox files', () => {
  it('holds a tina run at phase 2 of 3 with phase 1 complete and reviewed', () => {
    const state = path.join(project('checkout-flow'), '.claude', 'tina');
    const sup = readObject(path.join(state, 'supervisor-state.json'));
    expect(sup).toMatchObject({
      feature: 'checkout-flow',
      total_phases: 3,
      current_phase: 2,
      worktree_path: project('checkout-flow'),
    });
    const phases = sup?.phases as Record<string, Record<string, unknown>>;
    expect(phases['1']).toMatchObject({
      status: 'complete',
      review_verdicts: { '1': { spec_review: 'passed', quality_review: 'passed' } },
    });
    expect(phases['2']?.status).toBe('executing');
    expect(readObject(path.join(state, 'phase-1', 'status.json'))?.status).toBe('complete');
    const phase2 = readObject(path.join(state, 'phase-2', 'status.json'));
    expect(phase2?.status).toBe('executing');
    expect(Date.now() - Date.parse(String(phase2?.heartbeat_at))).toBeLessThan(60_000);
    expect(readObject(path.join(state, 'context-metrics.json'))).toMatchObject({ max: 200_000 });
    // Current tina writes no session registry: the run is found from its teams' working directories.
    expect(fs.existsSync(path.join(sb.claudeDir, 'tina-sessions', 'checkout-flow.json'))).toBe(false);
    expect(readObject(path.join(sb.claudeDir, 'tina-sessions', 'search-index.json'))?.worktree_path).toBe(
      project('search-index'),
    );
  });

  it('holds a phase-1 handoff in the January shape that the handoff parser reads whole', () => {
    const file = path.join(project('checkout-flow'), '.claude', 'tina', 'phase-1', 'handoff.md');
    const text = fs.readFileSync(file, 'utf8');
    for (const heading of [
      '## Timestamp',
      '## Reason',
      '## Team Composition',
      '## Task States',
      '## Review Tracking',
      '## Resumption Notes',
    ]) {
      expect(text).toContain(heading);
    }
    const { handoff, problems } = parseHandoff(text, file, readMarkdown);
    expect(problems).toEqual([]);
    expect(handoff.shape).toBe('january');
    expect(handoff.tasks.map((t) => t.id)).toEqual(['1', '2', '3', '4']);
    expect(handoff.members.map((m) => m.name)).toEqual([
      'worker-1',
      'worker-2',
      'spec-reviewer',
      'code-quality-reviewer',
    ]);
  });

  it('holds tasks whose blockedBy and blocks agree', () => {
    for (const team of ['checkout-flow-phase-2', 'search-index-phase-1', 'docs-refresh']) {
      const dir = path.join(sb.claudeDir, 'tasks', team);
      const tasks = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => readObject(path.join(dir, f)));
      const ids = tasks.map((t) => String(t?.id));
      if (team === 'checkout-flow-phase-2') expect(tasks.length).toBeGreaterThanOrEqual(8);
      for (const t of tasks) {
        for (const b of t?.blockedBy as string[]) {
          expect(ids).toContain(b);
          expect(tasks.find((o) => o?.id === b)?.blocks).toContain(t?.id);
        }
      }
    }
  });

  it('holds a harness project with a granted plan-approval and its decisions log', () => {
    const state = path.join(project('sheets-clone'), '.papercusp');
    const cfg = readObject(path.join(state, 'config.json'));
    const types =
      (cfg?.checkpoints as { enabled: boolean; types: Array<{ name: string; triggerOn?: string }> }) ?? null;
    expect(types?.enabled).toBe(true);
    expect(types?.types.map((t) => t.name)).toEqual(['plan-approval', 'pre-done', 'db-migration']);
    expect(fs.readFileSync(path.join(state, 'checkpoint-plan-approval.md'), 'utf8')).toMatch(
      /^# Checkpoint: plan-approval \(auto, triggerOn=post-planner\)\n/,
    );
    expect(fs.readFileSync(path.join(state, 'checkpoint-plan-approval.md.granted'), 'utf8')).toMatch(
      /^granted at \d{4}-\d\d-\d\dT[\d:.]+Z\n$/,
    );
    expect(fs.existsSync(path.join(state, '.checkpoint-plan-approval.fired'))).toBe(true);
    const log = fs.readFileSync(path.join(state, 'logs', 'run.log'), 'utf8');
    // The sandbox's agents run and append to the log (a worker's line may already follow): the
    // seeded decisions come first, F-6's the fourth, whatever came after them.
    const seeded = log.split('\n').filter((l) => l.includes('ORCH '));
    expect(seeded[3]).toMatch(/ORCH decision: NEXT_WORKER F-6 \(role=orchestrator\)$/);
    expect(log).toMatch(/ORCH batch \(3 decisions, role=orchestrator\): NEXT_WORKER F-1 \| NEXT_WORKER F-2/);
    expect(log).not.toMatch(/ORCH decision: CHECKPOINT/);
    const hook = path.join(state, 'hooks', 'on-checkpoint-fired.sh');
    expect(fs.statSync(hook).mode & 0o111).not.toBe(0);
  });

  it('holds a SAGE epic at the human gate and a dotagent phase awaiting approval', () => {
    const sage = path.join(project('billing'), '.sage', 'state');
    const epic = readObject(path.join(sage, 'EPIC-042.json'));
    expect(epic).toMatchObject({ epic: { id: 'EPIC-042' }, next_action: { type: 'hitl' } });
    expect(fs.readFileSync(path.join(sage, '.last_signal'), 'utf8').trim()).toBe('HITL_REQUIRED');

    const root = project('auth-service');
    const phase = readObject(path.join(root, 'memory', 'state', 'phase.json'));
    // As dotagent writes it on completion: current_phase already advanced past the phase awaiting approval.
    expect(phase).toMatchObject({ current_phase: 'IMPLEMENTATION', phase_status: 'complete', interruption_safe: true });
    const approved = (phase?.user_checkpoints as Array<{ phase: string }>).map((c) => c.phase);
    expect(approved).not.toContain('ARCHITECTURE');
    for (const c of phase?.completed_phases as Array<{ output: string }>)
      expect(fs.existsSync(path.join(root, c.output))).toBe(true);
    expect(readObject(path.join(root, 'memory', 'state', 'execution.json'))?.tasks).toHaveLength(2);
  });

  it('keeps everything inside the marked sandbox, with its own Claude config dir', () => {
    expect(fs.existsSync(path.join(sb.dir, SANDBOX_MARKER))).toBe(true);
    expect(sb.claudeDir).toBe(path.join(sb.dir, 'claude'));
    for (const root of sb.roots) expect(root.startsWith(path.join(sb.dir, 'projects') + path.sep)).toBe(true);
  });
});

describe('the agents', () => {
  it('run in panes whose ids, sessions and cwds are those of the team configs', async () => {
    const panes = await tmux.listPanes();
    const byId = new Map(panes.map((p) => [p.paneId, p]));
    const phaseTeam = teamConfig('checkout-flow-phase-2');
    const members = phaseTeam?.members as Array<Record<string, string>>;
    expect(members.map((m) => m.name)).toEqual([
      'team-lead',
      'worker-1',
      'worker-2',
      'spec-reviewer',
      'code-quality-reviewer',
    ]);
    expect(phaseTeam?.leadAgentId).toBe(members[0]?.agentId);
    for (const team of [
      'checkout-flow-orchestration',
      'checkout-flow-phase-2',
      'search-index-phase-1',
      'docs-refresh',
    ]) {
      for (const m of teamConfig(team)?.members as Array<Record<string, string>>) {
        if (m.tmuxPaneId === 'in-process') continue;
        const pane = byId.get(String(m.tmuxPaneId));
        expect(pane, `${team}/${m.name}`).toBeDefined();
        expect(pane?.cwd).toBe(m.cwd);
        expect(pane?.cwd.startsWith(path.join(sb.dir, 'projects'))).toBe(true);
        expect(pane?.title).toBe(m.name);
      }
    }
    expect(byId.get(members[0]?.tmuxPaneId ?? '')?.session).toBe('tina-checkout-flow-phase-2');
    // Each agent runs as the CLI it stands in for (a link to node by that name); the systems' runners as node.
    const runners = new Set(['papercusp-sheets-clone', 'sage-billing', 'dotagent-auth-service']);
    const others: Record<string, string> = { examples: 'codex', style: 'opencode', translator: 'gemini' };
    for (const p of panes) {
      expect(p.dead, p.title).toBe(false);
      expect(p.command, p.title).toBe(runners.has(p.session) ? 'node' : (others[p.title] ?? 'claude'));
    }
  });

  it('print sensible opening lines', async () => {
    const pane = (key: string) => sb.panes.get(key) ?? '';
    await waitForPane(
      tmux,
      pane('tina-checkout-flow-phase-2/team-lead'),
      'tina team-lead · checkout-flow · phase 2 of 3',
    );
    await waitForPane(tmux, pane('tina-checkout-flow-phase-2/team-lead'), /^❯/m);
    await waitForPane(tmux, pane('tina-checkout-flow-phase-2/worker-1'), 'worker-1 · checkout-flow-phase-2');
    await waitForPane(tmux, pane('tina-checkout-flow-phase-2/spec-reviewer'), 'spec review · phase 2');
    await waitForPane(
      tmux,
      pane('tina-checkout-flow-orchestration/team-lead'),
      /phase 2\/3 executing · tasks \d\/9 done/,
    );
    await waitForPane(tmux, pane('papercusp-sheets-clone/run.sh'), 'papercusp run.sh · sheets-clone');
    await waitForPane(tmux, pane('sage-billing/sage'), 'SAGE_SIGNAL:HITL_REQUIRED');
    await waitForPane(tmux, pane('dotagent-auth-service/dotagent'), 'ARCHITECTURE is complete: awaiting your approval');
  });

  it('are read by tower as one run per system, with live members and pending gates', async () => {
    const ctx = testContext({ claudeDir: sb.claudeDir, roots: sb.roots, socketName: sb.socketName });
    const snap = await buildSnapshot(ctx);
    expect(snap.problems).toEqual([]);
    const bySystem = (s: string) => snap.runs.filter((r) => r.system === s);
    expect(
      bySystem('tina')
        .map((r) => r.name)
        .sort(),
    ).toEqual(['checkout-flow', 'search-index']);
    expect(bySystem('claude-team').map((r) => r.name)).toEqual(['docs-refresh']);
    const tina = snap.runs.find((r) => r.id === 'tina:checkout-flow');
    expect(tina?.members.filter((m) => m.team === 'checkout-flow-phase-2' && m.state === 'alive')).toHaveLength(5);
    expect(tina?.tasks.length).toBe(9);
    expect(tina?.problems).toEqual([]);
    expect(bySystem('sage')[0]?.gates).toContainEqual(expect.objectContaining({ id: 'hitl', state: 'pending' }));
    expect(bySystem('dotagent')[0]?.gates).toContainEqual(
      expect.objectContaining({ id: 'ARCHITECTURE', state: 'pending', grantable: true }),
    );
    expect(bySystem('harness')[0]?.gates).toContainEqual(
      expect.objectContaining({ id: 'plan-approval', state: 'granted' }),
    );
    for (const run of snap.runs) expect(run.problems, run.id).toEqual([]);
  });

  it('die with their server when the sandbox stops', async () => {
    const pids = (await tmux.listPanes()).map((p) => p.pid);
    expect(pids.length).toBe(sb.panes.size);
    const socket = socketFile({ name: sb.socketName });
    expect(fs.lstatSync(socket).isSocket()).toBe(true);
    await sb.stop();
    expect(await tmux.listPanesOrNull()).toBeNull();
    // tmux leaves its socket file when its server is killed; the demo removes the one it made.
    expect(fs.existsSync(socket)).toBe(false);
    expect(pids.filter(pidAlive)).toEqual([]);
  });
});
