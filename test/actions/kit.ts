/**
 * Fixtures for the action tests: a tina project whose phase team runs in a private tmux server
 * (a fake lead that answers the checkpoint commands, a teammate that exits on SIGTERM and one that
 * ignores it, an orchestration lead), plus harness, SAGE and dotagent projects, an audit log in a
 * temp XDG_STATE_HOME, and the snapshot of it all built by hand or by tower's own reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config/config.js';
import type { ActionEnv } from '../../src/kit/types.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run, Snapshot } from '../../src/model/model.js';
import { ActivityStore } from '../../src/kit/activity.js';
import type { TestContext } from '../helpers/context.js';
import { testContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

export const FAKE_LEAD = fileURLToPath(new URL('../fixtures/agents/fake-lead.mjs', import.meta.url));
/** A teammate that exits on SIGTERM. */
export const PLAIN_TEAMMATE = `bash -c 'while :; do sleep 1; done'`;
/** A teammate that ignores SIGTERM: only SIGKILL ends it (and its `sleep` children keep coming). */
export const STUBBORN_TEAMMATE = `bash -c 'trap "" TERM; while :; do sleep 1; done'`;

/** Short waits so the whole file stays fast. */
export const FAST: Partial<Config> = {
  checkpointTimeoutSec: 1.5,
  stragglerAfterSec: 0.4,
  killGraceSec: 0.5,
  rehydrateTimeoutSec: 3,
};

export interface TinaFixture {
  root: string;
  stateDir: string;
  claudeDir: string;
  handoff: string;
  signal: string;
  panes: { lead: string; worker1: string; worker2: string; orchestrator: string };
}

function shellWord(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A tina run `auth` in phase 2 with its team in tmux; `lead` picks how the fake lead behaves. */
export async function tinaFixture(
  tmux: TmuxFixture,
  opts: { lead?: 'answers' | 'silent'; home: string },
): Promise<TinaFixture> {
  const root = tempDir('tower-tina-');
  const stateDir = path.join(root, '.claude', 'tina');
  const claudeDir = path.join(opts.home, '.claude');
  const handoff = path.join(stateDir, 'phase-2', 'handoff.md');
  writeFile(path.join(stateDir, 'supervisor-state.json'), {
    version: 1,
    feature: 'auth',
    worktree_path: root,
    total_phases: 3,
    current_phase: 2,
    status: 'executing',
    phases: { '1': { status: 'complete' }, '2': { status: 'executing' } },
  });
  writeFile(path.join(stateDir, 'phase-2', 'status.json'), {
    status: 'executing',
    started_at: new Date().toISOString(),
  });
  const leadCmd = `node ${shellWord(FAKE_LEAD)} --handoff ${shellWord(handoff)}${opts.lead === 'silent' ? ' --silent' : ''}`;
  const lead = await tmux.newSession('tina-auth-phase-2', root, leadCmd);
  const worker1 = await tmux.newSession('auth-w1', root, PLAIN_TEAMMATE);
  const worker2 = await tmux.newSession('auth-w2', root, STUBBORN_TEAMMATE);
  const orchestrator = await tmux.newSession('tina-auth-orchestration', root, PLAIN_TEAMMATE);
  const member = (team: string, name: string, agentType: string, pane: string) => ({
    agentId: `${name}@${team}`,
    name,
    agentType,
    model: 'claude-sonnet-4',
    joinedAt: Date.now(),
    tmuxPaneId: pane,
    cwd: root,
    subscriptions: [],
  });
  writeFile(path.join(claudeDir, 'teams', 'auth-phase-2', 'config.json'), {
    name: 'auth-phase-2',
    description: 'Phase 2 execution team',
    createdAt: Date.now(),
    leadAgentId: 'team-lead@auth-phase-2',
    members: [
      member('auth-phase-2', 'team-lead', 'team-lead', lead),
      member('auth-phase-2', 'worker-1', 'tina:implementer', worker1),
      member('auth-phase-2', 'worker-2', 'tina:implementer', worker2),
    ],
  });
  writeFile(path.join(claudeDir, 'teams', 'auth-orchestration', 'config.json'), {
    name: 'auth-orchestration',
    createdAt: Date.now(),
    leadAgentId: 'orchestrator@auth-orchestration',
    members: [member('auth-orchestration', 'orchestrator', 'team-lead', orchestrator)],
  });
  await waitFor(async () => (await tmux.client.capturePane(lead)).includes('❯'), 5000, {
    what: 'the fake lead prompt',
  });
  return {
    root,
    stateDir,
    claudeDir,
    handoff,
    signal: path.join(stateDir, 'checkpoint-needed'),
    panes: { lead, worker1, worker2, orchestrator },
  };
}

function alive(name: string, team: string, paneId: string, lead = false): Member {
  return {
    name,
    role: lead ? 'team-lead' : 'tina:implementer',
    model: 'claude-sonnet-4',
    paneId,
    state: 'alive',
    lead,
    team,
  };
}

/** The run tower's reader makes of the tina fixture, built by hand (these tests check the actions, not the reader). */
export function tinaRun(fx: TinaFixture, withSignal = false): Run {
  const run = emptyRun('tina', 'auth', fx.root, fx.stateDir);
  run.status = 'running';
  run.phase = { current: '2', total: 3, status: 'executing' };
  run.members = [
    alive('orchestrator', 'auth-orchestration', fx.panes.orchestrator, true),
    alive('team-lead', 'auth-phase-2', fx.panes.lead, true),
    alive('worker-1', 'auth-phase-2', fx.panes.worker1),
    alive('worker-2', 'auth-phase-2', fx.panes.worker2),
  ];
  if (withSignal) {
    run.gates = [
      {
        id: 'context',
        kind: 'context',
        state: 'pending',
        since: null,
        grantable: false,
        title: 'checkpoint due',
        file: fx.signal,
      },
    ];
  }
  return run;
}

/** A snapshot holding the given runs. */
export function snapshotOf(...runs: Run[]): Snapshot {
  return { version: 1, generatedAt: new Date().toISOString(), runs, problems: [] };
}

export interface ActionWorld {
  ctx: TestContext;
  env: ActionEnv;
  activity: ActivityStore;
  /** The audit log lines written so far, parsed. */
  audit(): Record<string, unknown>[];
  /** Replaces the snapshot the actions see. */
  setSnapshot(s: Snapshot): void;
}

/** A context on a private tmux socket with FAST timings, an audit log in `home`, and a settable snapshot. */
export function actionWorld(
  socketName: string,
  home: string,
  opts: { config?: Partial<Config>; claudeDir?: string } = {},
): ActionWorld {
  const ctx = testContext({
    claudeDir: opts.claudeDir ?? path.join(home, '.claude'),
    socketName,
    home,
    config: { ...FAST, ...opts.config },
  });
  ctx.env = { ...ctx.env, XDG_STATE_HOME: path.join(home, 'state'), TMUX: '' };
  let snapshot = snapshotOf();
  const activity = new ActivityStore();
  return {
    ctx,
    env: { ctx, snapshot: () => snapshot, activity },
    activity,
    audit: () => readAudit(home),
    setSnapshot: (s) => (snapshot = s),
  };
}

/** The outcome lines of the audit log under `<home>/state/tower/audit.jsonl` (`begun` lines left out). */
export function readAudit(home: string): Record<string, unknown>[] {
  return readAuditLines(home).filter((l) => l.outcome !== 'begun');
}

/** Every parsed line of the audit log, `begun` lines too. */
export function readAuditLines(home: string): Record<string, unknown>[] {
  const file = path.join(home, 'state', 'tower', 'audit.jsonl');
  return fs.existsSync(file) ? jsonLines(fs.readFileSync(file, 'utf8')) : [];
}

/** Each non-blank line of JSON Lines text, parsed. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Every file under `dir` with its content (for "nothing changed" checks). */
export function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = e.isSymbolicLink() ? `-> ${fs.readlinkSync(p)}` : fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}
