/**
 * The fake agents at work in real panes (fast speed): workers move tasks, reviewers give verdicts,
 * the harness fires pre-done, a tina phase escalates, SAGE and dotagent resume on a grant; they
 * survive garbled files and end cleanly on SIGTERM and SIGHUP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRuntime } from '../../src/demo/agents/runtime.js';
import { writeTextAtomic } from '../../src/demo/files.js';
import { writeTasks } from '../../src/demo/runs/claude-teams.js';
import type { DemoSandbox } from '../../src/demo/sandbox.js';
import { buildSandbox } from '../../src/demo/sandbox.js';
import { readDotagentRun } from '../../src/systems/dotagent/read.js';
import { parseRunLog } from '../../src/systems/harness/log.js';
import { readSageRun } from '../../src/systems/sage/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { buildAgentScript, paneOf, readObject, removeTempDirs, tempDir, waitForPane } from './support.js';

let sb: DemoSandbox;
let tmux: TmuxClient;
/** Every distinct code-quality verdict task 5 had, in order (recorded from the start: at this speed it moves fast). */
const task5Quality: string[] = [];
let recorder: NodeJS.Timeout | undefined;
let locker: AgentRuntime;

beforeAll(async () => {
  const script = await buildAgentScript();
  const dir = tempDir();
  // Recording starts before the agents do: on a loaded machine the sandbox can take a second or
  // more to start its last panes, while the first ones are already giving verdicts.
  const sup = path.join(dir, 'projects', 'checkout-flow', '.claude', 'tina', 'supervisor-state.json');
  recorder = setInterval(() => {
    const phases = readObject(sup)?.phases as
      Record<string, { review_verdicts?: Record<string, Record<string, string>> }> | undefined;
    const v = phases?.['2']?.review_verdicts?.['5']?.quality_review;
    if (v && v !== task5Quality[task5Quality.length - 1]) task5Quality.push(v);
  }, 5);
  sb = await buildSandbox(dir, { socketName: uniqueSocketName(), agentScript: script, agentSpeed: 20 });
  expect(sb.dir).toBe(dir);
  tmux = new TmuxClient({ name: sb.socketName }, 5000);
  // The test's own hand on the agents' lock, to change a file they read-modify-write.
  locker = new AgentRuntime({ sandbox: sb.dir, speed: 1, name: 'test', climb: false });
});

afterAll(async () => {
  clearInterval(recorder);
  await sb?.stop();
  removeTempDirs();
});

const project = (name: string) => path.join(sb.dir, 'projects', name);
const tinaState = (name: string) => path.join(project(name), '.claude', 'tina');
const pane = (key: string) => {
  const id = sb.panes.get(key);
  if (!id) throw new Error(`no pane ${key}`);
  return id;
};

type TaskFile = { id: string; status: string; owner: string | null; blockedBy: string[] };

function tasksOf(team: string): TaskFile[] {
  const dir = path.join(sb.claudeDir, 'tasks', team);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readObject(path.join(dir, f)) as TaskFile | null)
    .filter((t): t is TaskFile => t !== null);
}

// Waits are polls, sized for a loaded two-core machine; a test whose agents keep up ends in seconds.
describe('the agents', { timeout: 60_000 }, () => {
  it('survive a garbled state file and carry on once it is whole again', async () => {
    const status = path.join(tinaState('checkout-flow'), 'phase-2', 'status.json');
    const original = fs.readFileSync(status, 'utf8');
    const garbled = '{"status": "execut';
    const lead = paneOf(sb.claudeDir, 'checkout-flow-phase-2', 'team-lead');
    const paused = 'phase-2/status.json is missing or unreadable; heartbeat paused';
    // The lead rewrites this file (atomically) on every beat, and takes no lock: a beat that read
    // it just before it was garbled puts it back whole. Garble it again until the lead has seen it.
    await waitFor(
      async () => {
        if (fs.readFileSync(status, 'utf8') !== garbled) fs.writeFileSync(status, garbled);
        return (await tmux.capturePane(lead, 200)).includes(paused);
      },
      20_000,
      { intervalMs: 50, what: `pane ${lead} to show ${paused}` },
    );
    // It still answers while its file is broken.
    await tmux.sendLine(lead, '/help');
    await waitForPane(tmux, lead, '/tina:checkpoint (or /checkpoint)');
    // It never writes a file it can't read, so nothing races the repair.
    writeTextAtomic(status, original);
    const before = Date.parse(JSON.parse(original).heartbeat_at as string);
    await waitFor(() => Date.parse(String(readObject(status)?.heartbeat_at)) > before, 20_000, {
      what: 'a fresh heartbeat',
    });

    // The reviewers read-modify-write this one under the agents' shared lock: garble and repair it
    // under that lock too, so no verdict written meanwhile is lost or overwritten.
    const sup = path.join(tinaState('checkout-flow'), 'supervisor-state.json');
    const saved = await locker.withLock(sup, () => {
      const text = fs.readFileSync(sup, 'utf8');
      fs.writeFileSync(sup, '\u0000\u0001 not json');
      return text;
    });
    await waitForPane(
      tmux,
      pane('tina-checkout-flow-phase-2/spec-reviewer'),
      'supervisor-state.json is missing or unreadable; waiting',
    );
    await locker.withLock(sup, () => writeTextAtomic(sup, saved));
    const panes = await tmux.listPanes();
    expect(panes).toHaveLength(sb.panes.size);
  });

  it('move tasks along, never starting one before its blockers are done', async () => {
    const team = 'checkout-flow-phase-2';
    // Two tasks of the test's own, the second waiting for the first: how far the seeded tasks got
    // by now depends on how loaded the machine is, these are pending whenever the test runs.
    const seed = { description: 'added by the test', status: 'pending', owner: null } as const;
    writeTasks(sb.claudeDir, team, [
      { ...seed, id: '10', subject: 'Document the checkout API', blockedBy: [] },
      { ...seed, id: '11', subject: 'Announce the checkout API', blockedBy: ['10'] },
    ]);
    const early: string[] = [];
    /** The task once it is no longer pending, noting any task of the board started before its blockers were done. */
    const started = (id: string) => () => {
      const tasks = tasksOf(team);
      // Blockers are read again after the tasks that wait on them: a status only moves forward,
      // so a blocker not completed now was not completed when its task started.
      const now = tasksOf(team);
      for (const t of tasks) {
        if (t.status === 'pending') continue;
        for (const b of t.blockedBy)
          if (now.find((o) => o.id === b)?.status !== 'completed') early.push(`task ${t.id} (${t.status}) before ${b}`);
      }
      const task = tasks.find((t) => t.id === id);
      return task?.status !== 'pending' && task;
    };
    const first = await waitFor(started('10'), 30_000, { what: 'a worker to pick up task 10' });
    expect(first.owner).toMatch(/^worker-[12]$/);
    await waitForPane(tmux, pane(`tina-checkout-flow-phase-2/${first.owner}`), '→ task 10 picked up');
    const second = await waitFor(started('11'), 30_000, { what: 'a worker to pick up task 11 once task 10 is done' });
    expect(second.owner).toMatch(/^worker-[12]$/);
    expect(tasksOf(team).find((t) => t.id === '10')?.status).toBe('completed');
    expect(early).toEqual([]);
  });

  it('give review verdicts into the supervisor state, failing one task before passing it', async () => {
    const sup = path.join(tinaState('checkout-flow'), 'supervisor-state.json');
    const verdictOf = (id: string) => {
      const phases = readObject(sup)?.phases as
        Record<string, { review_verdicts?: Record<string, Record<string, string>> }> | undefined;
      return phases?.['2']?.review_verdicts?.[id];
    };
    await waitFor(() => verdictOf('5')?.quality_review === 'passed', 30_000, {
      what: 'task 5 to pass code review after the fix',
    });
    const failedAt = task5Quality.indexOf('failed');
    expect(failedAt, `verdicts seen: ${task5Quality.join(', ')}`).toBeGreaterThanOrEqual(0);
    expect(task5Quality.slice(failedAt + 1)).toContain('passed');
    expect(verdictOf('5')).toMatchObject({ spec_review: 'passed', worker: 'worker-1' });
    expect(verdictOf('3')).toMatchObject({ spec_review: 'passed', quality_review: 'passed' });
    await waitForPane(
      tmux,
      pane('tina-checkout-flow-phase-2/code-quality-reviewer'),
      '✗ code-quality review task 5: failed',
    );
  });

  it('fire the pre-done checkpoint of the harness, and finish once it is granted', async () => {
    const state = path.join(project('sheets-clone'), '.papercusp');
    const pending = path.join(state, 'checkpoint-pre-done.md');
    const body = await waitFor(() => fs.existsSync(pending) && fs.readFileSync(pending, 'utf8'), 20_000, {
      what: 'checkpoint-pre-done.md',
    });
    expect(body).toMatch(
      /^# Checkpoint: pre-done \(auto, triggerOn=pre-done\)\n\nRequested at: \d{4}-\d\d-\d\dT[\d:]+Z\n/,
    );
    expect(body).toContain('## How to grant');
    expect(fs.readFileSync(path.join(state, '.checkpoint-pre-done.fired'), 'utf8')).toBe('');
    const log = path.join(state, 'logs', 'run.log');
    // Firing a checkpoint is no orchestrator decision: a CHECKPOINT verb would read as an escalation.
    expect(parseRunLog(fs.readFileSync(log, 'utf8'), log).value?.verb).toMatch(/^NEXT_/);
    await waitForPane(tmux, pane('papercusp-sheets-clone/run.sh'), 'paused at checkpoint pre-done');

    fs.writeFileSync(`${pending}.granted`, `granted at ${new Date().toISOString()}\n`);
    await waitFor(() => parseRunLog(fs.readFileSync(log, 'utf8'), log).value?.verb === 'DONE', 20_000, {
      what: 'ORCH decision: DONE',
    });
    expect(fs.readFileSync(log, 'utf8')).toMatch(/ORCH decision: DONE \(role=orchestrator\)\n$/);
    await waitForPane(tmux, pane('papercusp-sheets-clone/run.sh'), '▶ pre-done granted');
  });

  it('escalate the search-index phase: blocked with a reason', async () => {
    const state = tinaState('search-index');
    const status = await waitFor(
      () =>
        readObject(path.join(state, 'phase-1', 'status.json'))?.status === 'blocked' &&
        readObject(path.join(state, 'phase-1', 'status.json')),
      20_000,
      {
        what: 'phase 1 to block',
      },
    );
    expect(status).toMatchObject({ reason: 'Phase reviewer rejected 3 times', context: { attempts: 3 } });
    expect(Number.isNaN(Date.parse(String(status.blocked_at)))).toBe(false);
    const sup = readObject(path.join(state, 'supervisor-state.json'));
    expect(sup).toMatchObject({
      status: 'blocked',
      phases: { '1': { status: 'blocked', blocked_reason: 'Phase reviewer rejected 3 times' } },
    });
    await waitForPane(
      tmux,
      pane('tina-search-index-phase-1/team-lead'),
      'PHASE BLOCKED: Phase reviewer rejected 3 times',
    );
  });

  it('resume SAGE when the human gate is approved, consuming the answer as the orchestrator does', async () => {
    const state = path.join(project('billing'), '.sage', 'state');
    const log = path.join(project('billing'), '.sage', 'logs', 'orchestrator-v2.log');
    const logBefore = fs.readFileSync(log, 'utf8');
    // Written whole: a read of half of it ("STATUS: APP") would be a different answer.
    writeTextAtomic(path.join(state, '.resume-signal'), 'STATUS: APPROVED\n');
    await waitForPane(tmux, pane('sage-billing/sage'), '▶ resume signal: STATUS: APPROVED');
    // Read, logged, deleted (kwg/sage-method bin/orchestrate-v2.sh wait_for_resume_signal).
    expect(fs.existsSync(path.join(state, '.resume-signal'))).toBe(false);
    // The pane's line comes before the log's last lines: wait for the log, not for the pane.
    const added = await waitFor(() => {
      const text = fs.readFileSync(log, 'utf8').slice(logBefore.length);
      return text.includes('[SUCCESS] Approval received') ? text : null;
    }, 5000);
    expect(added).toMatch(/^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00\] \[INFO\] Resume signal detected!\n/);
    expect(added).toContain('[INFO] Resume status: APPROVED\n');
    expect(added).toContain('[SUCCESS] Approval received - resuming orchestration\n');
    // tower reads the consumed answer as answered: nothing left to grant.
    const gate = readSageRun(project('billing'), state, { ...DEFAULT_READ_SETTINGS, now: Date.now() }).gates[0];
    expect(gate === undefined || (gate.state === 'granted' && !gate.grantable)).toBe(true);
    const epic = await waitFor(() => readObject(path.join(state, 'EPIC-042.json')), 5000);
    await waitFor(
      () =>
        (readObject(path.join(state, 'EPIC-042.json'))?.next_action as { type?: string } | undefined)?.type ===
        'continue',
      20_000,
      { what: 'next_action continue' },
    );
    expect(readObject(path.join(state, 'EPIC-042.json'))?.completed).toEqual(epic.completed);
  });

  it('move dotagent to the next phase once its phase is approved, keeping every field', async () => {
    const file = path.join(project('auth-service'), 'memory', 'state', 'phase.json');
    const phase = readObject(file) as Record<string, unknown> & { user_checkpoints: unknown[] };
    writeTextAtomic(
      file,
      JSON.stringify({
        ...phase,
        user_checkpoints: [...phase.user_checkpoints, { phase: 'ARCHITECTURE', approved_at: new Date().toISOString() }],
      }),
    );
    // On completion dotagent already advanced current_phase; the approval starts that phase.
    expect(phase).toMatchObject({ current_phase: 'IMPLEMENTATION', phase_status: 'complete' });
    const next = await waitFor(() => readObject(file)?.phase_status === 'in_progress' && readObject(file), 20_000, {
      what: 'IMPLEMENTATION in progress',
    });
    expect(next).toMatchObject({
      current_phase: 'IMPLEMENTATION',
      workflow_id: phase.workflow_id,
      completed_phases: phase.completed_phases,
    });
    expect((next.user_checkpoints as Array<{ phase: string }>).map((c) => c.phase)).toEqual([
      'REQUIREMENTS',
      'ARCHITECTURE',
    ]);
    const run = readDotagentRun(project('auth-service'), path.dirname(file), {
      ...DEFAULT_READ_SETTINGS,
      now: Date.now(),
    });
    expect(run.gates.filter((g) => g.state === 'pending')).toEqual([]);
    expect(run.status).toBe('running');
  });

  it('exit cleanly on SIGTERM and SIGHUP', async () => {
    const panes = await tmux.listPanes();
    const victims = [pane('tina-checkout-flow-phase-2/worker-2'), pane('docs-refresh/team-lead')];
    const signals = ['SIGTERM', 'SIGHUP'] as const;
    for (const [i, id] of victims.entries()) {
      // Keep the pane after its process exits, to read how it exited.
      await tmux.run(['set-option', '-p', '-t', id, 'remain-on-exit', 'on']);
      const pid = panes.find((p) => p.paneId === id)?.pid ?? 0;
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, signals[i]);
    }
    const server = Number((await tmux.run(['display-message', '-p', '#{pid}'])).trim());
    for (const id of victims) {
      const status = await waitFor(
        async () => {
          const [dead, code, signal] = (
            await tmux.run(['display-message', '-p', '-t', id, '#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}'])
          )
            .trim()
            .split('|');
          if (dead !== '1') return null;
          if (code || signal) return signal ? `signal ${signal}` : code;
          // Dead but no status yet: tmux built with libutempter can lose the SIGCHLD of an agent that
          // exits while utempter's helper runs (tmux issue #311), leaving the agent unreaped until
          // the next SIGCHLD. Send that one, as the tmux author advises, so tmux reaps and records it.
          process.kill(server, 'SIGCHLD');
          return null;
        },
        10_000,
        { what: `pane ${id} to exit` },
      );
      expect(status).toBe('0');
    }
  });
});
