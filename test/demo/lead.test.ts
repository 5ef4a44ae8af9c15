/**
 * The fake tina team lead in a real pane: its context climbs to the checkpoint signal, and it
 * answers the checkpoint, clear and rehydrate commands typed the way tower types them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSandbox } from '../../src/demo/sandbox.js';
import { buildSandbox } from '../../src/demo/sandbox.js';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { readMarkdown } from '../../src/systems/tina/markdown-reader.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { buildAgentScript, paneOf, readObject, removeTempDirs, tempDir, waitForPane } from './support.js';

let sb: DemoSandbox;
let tmux: TmuxClient;
let lead: string;
let state: string;

beforeAll(async () => {
  // Fast agents: the context climbs a step every 200 ms.
  sb = await buildSandbox(tempDir(), {
    socketName: uniqueSocketName(),
    agentScript: await buildAgentScript(),
    agentSpeed: 20,
  });
  tmux = new TmuxClient({ name: sb.socketName }, 5000);
  lead = paneOf(sb.claudeDir, 'checkout-flow-phase-2', 'team-lead');
  state = path.join(sb.dir, 'projects', 'checkout-flow', '.claude', 'tina');
  await waitForPane(tmux, lead, /^❯/m);
});

afterAll(async () => {
  await sb?.stop();
  removeTempDirs();
});

const handoffFile = () => path.join(state, 'phase-2', 'handoff.md');

describe('the tina team lead', () => {
  it('raises its context until it writes checkpoint-needed', async () => {
    const signal = await waitFor(() => readObject(path.join(state, 'checkpoint-needed')), 15_000, {
      what: 'checkpoint-needed',
    });
    expect(signal).toMatchObject({ threshold: 70, source: 'statusline' });
    expect(signal.context_pct as number).toBeGreaterThanOrEqual(70);
    expect(Number.isNaN(Date.parse(String(signal.triggered_at)))).toBe(false);
    expect(readObject(path.join(state, 'context-metrics.json'))?.used_pct as number).toBeGreaterThanOrEqual(70);
    await waitForPane(tmux, lead, 'wrote checkpoint-needed');
  });

  it('answers /tina:checkpoint with a real handoff and CHECKPOINT COMPLETE', async () => {
    await tmux.sendLine(lead, '/tina:checkpoint');
    await waitForPane(tmux, lead, 'CHECKPOINT COMPLETE');
    const text = fs.readFileSync(handoffFile(), 'utf8');
    expect(fs.statSync(handoffFile()).mtimeMs).toBeGreaterThanOrEqual(
      fs.statSync(path.join(state, 'checkpoint-needed')).mtimeMs,
    );
    const { handoff, problems } = parseHandoff(text, handoffFile(), readMarkdown);
    expect(problems).toEqual([]);
    expect(handoff.shape).toBe('january');
    expect(handoff.reason).toMatch(/^Context threshold exceeded/);
    expect(handoff.members.map((m) => m.name)).toEqual([
      'worker-1',
      'worker-2',
      'spec-reviewer',
      'code-quality-reviewer',
    ]);
    expect(handoff.members[0]?.role).toBe('tina:implementer');
    const taskIds = fs
      .readdirSync(path.join(sb.claudeDir, 'tasks', 'checkout-flow-phase-2'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace('.json', ''));
    expect(handoff.tasks.map((t) => t.id).sort()).toEqual(taskIds.sort());
    expect(handoff.reviews.length).toBeGreaterThan(0);
    expect(text).toContain('## Resumption Notes');
  });

  it('clears its screen on /clear and shows the prompt again', async () => {
    await tmux.sendLine(lead, '/clear');
    const screen = await waitFor(
      async () => {
        const text = await tmux.capturePane(lead, 200);
        return !text.includes('CHECKPOINT COMPLETE') && /^❯/m.test(text) ? text : null;
      },
      5000,
      { what: 'a cleared pane with a prompt' },
    );
    expect(screen).not.toContain('/tina:checkpoint');
  });

  it('answers /tina:rehydrate from the handoff with REHYDRATE COMPLETE, then climbs again to a new signal', async () => {
    await tmux.sendLine(lead, '/tina:rehydrate');
    const screen = await waitForPane(tmux, lead, 'REHYDRATE COMPLETE');
    expect(screen).toMatch(/restored 9 tasks/);
    // What tower does after the rehydrate command: the signal goes.
    fs.rmSync(path.join(state, 'checkpoint-needed'));
    const seen: number[] = [];
    const signal = await waitFor(
      () => {
        const pct = readObject(path.join(state, 'context-metrics.json'))?.used_pct;
        if (typeof pct === 'number' && pct !== seen[seen.length - 1]) seen.push(pct);
        return readObject(path.join(state, 'checkpoint-needed'));
      },
      15_000,
      { intervalMs: 10, what: 'a second checkpoint-needed' },
    );
    expect(signal.context_pct as number).toBeGreaterThanOrEqual(70);
    // From the rehydrated ~15 %, a few points at a time.
    expect(seen[0]).toBeLessThan(40);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('accepts the plugin form of the commands', async () => {
    const before = fs.statSync(handoffFile()).mtimeMs;
    await tmux.sendLine(lead, '/clear');
    await tmux.sendLine(lead, '/tina:checkpoint');
    await waitForPane(tmux, lead, 'CHECKPOINT COMPLETE');
    expect(fs.statSync(handoffFile()).mtimeMs).toBeGreaterThan(before);
    await tmux.sendLine(lead, '/tina:rehydrate');
    await waitForPane(tmux, lead, 'REHYDRATE COMPLETE');
  });

  it('thinks about anything else', async () => {
    await tmux.sendLine(lead, 'how is phase 2 going?');
    await waitForPane(tmux, lead, '(thinking about: how is phase 2 going?)');
  });

  it('refuses to rehydrate without a handoff (the bare form of the command is understood too)', async () => {
    const other = paneOf(sb.claudeDir, 'search-index-phase-1', 'team-lead');
    await waitForPane(tmux, other, /^❯/m);
    await tmux.sendLine(other, '/rehydrate');
    const screen = await waitForPane(tmux, other, 'REHYDRATE FAILED');
    expect(screen).not.toContain('REHYDRATE COMPLETE');
  });
});
