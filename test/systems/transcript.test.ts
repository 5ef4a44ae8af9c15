/**
 * The context of a Claude Code agent from its transcript. The lines are shaped like Claude Code's
 * own (v2.1 JSONL: `{"type":"assistant","requestId",…,"message":{"id","model","usage":{input_tokens,
 * cache_creation_input_tokens, cache_read_input_tokens, output_tokens}}}`, one line per content
 * block repeating the usage; `<synthetic>` API-error lines with zero usage), as documented by
 * skillsynchq/txcript docs/formats/claude-code.md and skiagram-core's claude_code adapter notes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseTeamConfig } from '../../src/systems/claude-teams/team-config.js';
import { teamRun } from '../../src/systems/claude-teams/team-run.js';
import { modelWindow, TAIL_BYTES, transcriptFile, transcriptUsage } from '../../src/systems/claude-teams/transcript.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';

const tempDir = tempDirsPerTest('tower-transcript-');
let dir: string;
beforeEach(() => (dir = tempDir()));

let n = 0;
function assistant(
  id: string,
  usage: { input: number; write: number; read: number; out: number },
  model = 'claude-opus-4-5-20251101',
): string {
  const line = {
    parentUuid: `p-${n}`,
    isSidechain: false,
    type: 'assistant',
    uuid: `u-${n++}`,
    timestamp: '2026-06-13T10:00:00.000Z',
    requestId: `req_${id}`,
    message: {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: 'ok' }],
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.write,
        cache_read_input_tokens: usage.read,
        output_tokens: usage.out,
      },
    },
  };
  return `${JSON.stringify(line)}\n`;
}
const user = (text: string) =>
  `${JSON.stringify({ type: 'user', uuid: `u-${n++}`, message: { role: 'user', content: text } })}\n`;

describe('transcripts', () => {
  it('are found under projects/ by the cwd with / . \\ : as -', () => {
    expect(transcriptFile('/home/op/.claude', '/srv/work/my.app', 'abc-123')).toBe(
      '/home/op/.claude/projects/-srv-work-my-app/abc-123.jsonl',
    );
  });

  it('give the last turn’s context in use and the tokens of each message once', () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(
      file,
      user('hi') +
        assistant('1', { input: 10, write: 20_000, read: 0, out: 50 }) +
        assistant('1', { input: 10, write: 20_000, read: 0, out: 50 }) +
        assistant('2', { input: 5, write: 1000, read: 119_000, out: 80 }),
    );
    expect(transcriptUsage(file)).toEqual({
      used: 120_005,
      window: 200_000,
      usedPct: 60,
      tokens: { input: 15, output: 130, cacheRead: 119_000, cacheWrite: 21_000 },
    });
    // An API error line (synthetic, usage zero) is not a turn.
    fs.appendFileSync(file, assistant('3', { input: 0, write: 0, read: 0, out: 0 }, '<synthetic>'));
    expect(transcriptUsage(file)?.used).toBe(120_005);
    fs.appendFileSync(file, assistant('4', { input: 3, write: 500, read: 150_000, out: 10 }));
    expect(transcriptUsage(file)).toMatchObject({ used: 150_503, usedPct: 75 });
    expect(transcriptUsage(path.join(dir, 'missing.jsonl'))).toBeNull();
  });

  it('read only the tail of a long transcript, then only what is appended', () => {
    const file = path.join(dir, 'long.jsonl');
    const filler = user('x'.repeat(1000));
    const early = assistant('early', { input: 1, write: 0, read: 0, out: 999_999 });
    fs.writeFileSync(
      file,
      early +
        filler.repeat(Math.ceil((2 * TAIL_BYTES) / filler.length)) +
        assistant('late', { input: 1, write: 0, read: 100_000, out: 7 }),
    );
    const first = transcriptUsage(file);
    // The early message lies before the tail: its output tokens were never read.
    expect(first?.tokens.output).toBe(7);
    fs.appendFileSync(file, assistant('next', { input: 2, write: 0, read: 100_000, out: 3 }));
    expect(transcriptUsage(file)?.tokens.output).toBe(10);
  });
});

describe('a Claude team’s lead context', () => {
  it('is the run’s CONTEXT, on the lead, and past the threshold a context gate', () => {
    const claude = path.join(dir, 'claude');
    const cwd = path.join(dir, 'proj');
    fs.mkdirSync(cwd, { recursive: true });
    const configFile = path.join(claude, 'teams', 'docs', 'config.json');
    const config = {
      name: 'docs',
      leadAgentId: 'team-lead@docs',
      leadSessionId: 'f1e2d3c4-0000-4000-8000-000000000001',
      members: [
        {
          agentId: 'team-lead@docs',
          name: 'team-lead',
          agentType: 'team-lead',
          model: 'claude-opus-4-5',
          tmuxPaneId: '%1',
          cwd,
        },
      ],
    };
    const team = parseTeamConfig(config, configFile, path.join(claude, 'tasks', 'docs')).team!;
    const file = transcriptFile(claude, cwd, config.leadSessionId);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, assistant('a', { input: 4, write: 2000, read: 150_000, out: 40 }));
    const run = teamRun(team, { ...DEFAULT_READ_SETTINGS, now: Date.now() });
    expect(run.context).toEqual({ usedPct: 76, threshold: 70 });
    expect(run.members[0]?.context).toEqual({ usedPct: 76, tokens: 152_004, window: 200_000 });
    expect(run.members[0]?.tokens).toEqual({ input: 4, output: 40, cacheRead: 150_000, cacheWrite: 2000 });
    expect(run.gates).toEqual([
      expect.objectContaining({
        id: 'context',
        kind: 'context',
        grantable: false,
        title: 'Context 76% ≥ 70% — checkpoint due',
        file,
      }),
    ]);
  });
});

describe('the window of a captured Claude Code 2.1.332 session', () => {
  const captured = path.join(import.meta.dirname, '../fixtures/claude-code-2.1.332');

  it('is the one its status line was given (1M for claude-opus-5-5), and the percentage agrees', () => {
    const cli = JSON.parse(fs.readFileSync(path.join(captured, 'statusline/input.json'), 'utf8')) as {
      context_window: { context_window_size: number; used_percentage: number };
    };
    const usage = transcriptUsage(path.join(captured, 'transcripts/solo.jsonl'))!;
    expect(usage.window).toBe(cli.context_window.context_window_size);
    expect(Math.abs(usage.usedPct - cli.context_window.used_percentage)).toBeLessThanOrEqual(1);
  });

  it('knows each model by its id, dated or tagged [1m]', () => {
    expect(modelWindow('claude-opus-5-5')).toBe(1_000_000);
    expect(modelWindow('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(modelWindow('claude-sonnet-4-6[1m]')).toBe(1_000_000);
    expect(modelWindow('gpt-oss')).toBeNull();
  });
});
