/**
 * tower reading and acting on the real Gemini CLI 0.61.0 (one for the file) against the Gemini API
 * stand-in, with tower's hook installed in its settings by the built `tower hooks install`: its pane
 * told as Gemini CLI though tmux says `node`; its hook fired under Gemini's own names, named; asking
 * with the real command; approved with `tower answer 1` and denied with `n`, each checked by what the
 * stand-in model is sent next; the context from the session's jsonl.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { stateOfGeminiEvent } from '../../src/agents/gemini-cli/hooks.js';
import { sessionUsage } from '../../src/agents/gemini-cli/session.js';
import { agentOfPane } from '../../src/agents/registry.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run } from '../../src/model/model.js';

import { PaneWatch } from '../../src/store/captures.js';
import { GEMINI_HOOK_EVENTS } from '../../src/commands/hooks-gemini.js';
import { parseEventLine, type EventLine } from '../../src/store/hook-line.js';
import { buildTower } from '../actions/cli-kit.js';

import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import { startGemini, type GeminiRun } from '../helpers/gemini-cli/launch.js';
import { functionResponseSeen, shellTurn } from '../helpers/gemini-cli/scenarios.js';
import { lastUserText } from '../helpers/gemini-cli/gemini-api.js';
import { actOnMember, readMemberWhen } from '../helpers/member-reads.js';
import { waitFor } from '../helpers/wait-for.js';

let g: GeminiRun;
let events: string;
let watch: PaneWatch;
let acting: ReturnType<typeof actingWorld>;
let run: Run;

function agent(paneId: string): Member {
  return { name: 'gem', role: 'coder', model: 'm', paneId, state: 'alive', lead: true };
}

const seenWhen = (want: (m: Member) => boolean) =>
  readMemberWhen({ watch, paneId: g.paneId, run }, want, { timeoutMs: 60_000, intervalMs: 200 });
const act = (read: Run, action: { choice: string } | { text: string }) => actOnMember(acting.w, read, action);

beforeAll(async () => {
  const tower = await buildTower();
  g = await startGemini({
    script: [shellTurn('FIRST', 'echo one > one.txt'), shellTurn('SECOND', 'echo two > two.txt')],
    setup: ({ home, settingsPath }) => {
      execFileSync(process.execPath, [tower, 'hooks', 'install', '--settings', settingsPath], {
        env: { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, '.local/state') },
      });
    },
  });
  events = path.join(g.home, '.local/state/tower/hooks/events');
  await g.ready(120_000);
  acting = actingWorld(g, 'tower-gemini-act-');
  watch = new PaneWatch(acting.tmux);
  run = { ...emptyRun('claude-team', 'gemini', g.project, null), members: [agent(g.paneId)] };
}, 180_000);
afterAll(async () => {
  await g?.stop();
}, 30_000);

/** The hook events written so far. */
function hookEvents(): EventLine[] {
  if (!fs.existsSync(events)) return [];
  return fs
    .readFileSync(events, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => parseEventLine(l))
    .filter((e): e is EventLine => e !== null);
}

describe('Gemini CLI 0.61.0 in tmux', () => {
  it('is told by its node process; tower’s hook fires under Gemini’s own names, named, with no warning', async () => {
    const argv = fs.readFileSync(`/proc/${g.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const command = (await g.tmux.run(['display-message', '-p', '-t', g.paneId, '#{pane_current_command}'])).trim();
    expect(agentOfPane({ command, argv: [argv] })?.id).toBe('gemini-cli');
    await waitFor(() => hookEvents().some((e) => e.event === 'SessionStart'), 30_000, { what: 'SessionStart' });
    expect(hookEvents()[0]).toMatchObject({ event: 'SessionStart', pane: g.paneId, server: g.socketPath });
    const screen = await g.screen();
    expect(screen).not.toMatch(/umask 077|[Uu]nknown hook|[Ii]nvalid hook/);
    const m = (await seenWhen((x) => x.activity === 'waiting')).members[0]!;
    expect(m).toMatchObject({ agent: 'gemini-cli', activity: 'waiting', activityCue: 'prompt' });
  });

  it('asks with the real command; tower answer 1 approves it: it runs and the model gets its output', async () => {
    await g.submit('please FIRST');
    await g.waitForScreen('Allow execution', 90_000);
    const read = await seenWhen((x) => x.prompt !== undefined);
    const m = read.members[0]!;
    expect(m).toMatchObject({ agent: 'gemini-cli', activity: 'waiting', activityCue: 'question' });
    expect(m.prompt!.question).toBe('Allow execution of [Shell]?');
    expect(m.prompt!.subject).toContain('echo one > one.txt');
    expect(m.prompt!.options.map((o) => o.key)).toEqual(['1', '2', '3']);
    await waitFor(() => hookEvents().some((e) => e.notificationType === 'ToolPermission'), 30_000, {
      what: 'the ToolPermission notice',
    });
    const last = hookEvents().at(-1)!;
    expect(stateOfGeminiEvent(last.event, last.notificationType)?.cue).toBe('question');
    const { plan, outcome } = await act(read, { choice: '1' });
    expect(plan.title).toContain('→ 1. Allow once');
    expect(outcome).toMatchObject({ status: 'done' });
    // A digit alone: it selects and confirms.
    expect(acting.tmux.sent.slice(-1)[0]!.args).toEqual(['send-keys', '-t', g.paneId, '-l', '--', '1']);
    await waitFor(() => functionResponseSeen(g.api.requests) !== null, 90_000, { what: 'the function response' });
    expect(fs.readFileSync(path.join(g.project, 'one.txt'), 'utf8')).toBe('one\n');
    await waitFor(() => hookEvents().at(-1)?.event === 'AfterAgent', 90_000, { what: 'AfterAgent' });
    const fired = new Set(hookEvents().map((e) => e.event));
    for (const e of GEMINI_HOOK_EVENTS.filter((n) => n !== 'SessionEnd')) expect(fired).toContain(e);
    // The context: the session's last model turn, as the CLI wrote it.
    const transcript = hookEvents().find((e) => e.transcript)?.transcript;
    expect(transcript && sessionUsage(transcript)).toMatchObject({ used: 1200, tokens: { input: 1200 } });
  }, 240_000);

  it('tower answer n says No: nothing runs and nothing reaches the model', async () => {
    await g.submit('please SECOND');
    await g.waitForScreen('echo two > two.txt', 90_000);
    const read = await seenWhen((x) => x.prompt?.subject.includes('echo two > two.txt') === true);
    const sent = g.api.requests.length;
    const { plan, outcome } = await act(read, { choice: 'n' });
    expect(plan.title).toContain('→ 3. No, suggest changes (esc)');
    expect(outcome).toMatchObject({ status: 'done' });
    await g.waitForScreen('Request cancelled', 30_000);
    expect(fs.existsSync(path.join(g.project, 'two.txt'))).toBe(false);
    expect(g.api.requests.slice(sent).filter((r) => r.verb === 'streamGenerateContent')).toEqual([]);
    await g.ready(30_000);
  }, 240_000);

  it('tower send pastes a line, waits for the box to draw it, and submits it: the model gets it', async () => {
    const idle = await seenWhen((x) => x.prompt === undefined && x.activity === 'waiting');
    const line = 'a line sent by tower';
    const { outcome } = await act(idle, { text: line });
    expect(outcome.status).toBe('done');
    // The carriage return went after the paste, once the line was drawn in the box.
    expect(acting.tmux.sent.slice(-1)[0]!.args).toEqual(['send-keys', '-t', g.paneId, '-H', '0D']);
    await waitFor(
      () => g.api.requests.some((r) => r.verb === 'streamGenerateContent' && lastUserText(r).includes(line)),
      90_000,
      { what: 'the line to reach the model' },
    );
  }, 240_000);
});
