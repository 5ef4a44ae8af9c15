/**
 * The context gauge against the real CLI: the window and percentage tower reads from a session's
 * transcript agree with what the CLI itself hands a status-line command (`context_window`), per
 * model and per session (a model with 1M natively, one with 200k, the same one opted in to 1M).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transcriptUsage } from '../../src/systems/claude-teams/transcript.js';
import { startClaude, type ClaudeRun } from '../helpers/claude-cli/launch.js';
import { waitFor } from '../helpers/wait-for.js';

interface StatusLineInput {
  transcript_path: string;
  model: { id: string };
  context_window: { context_window_size: number; used_percentage: number; total_input_tokens: number };
}

let claude: ClaudeRun | null = null;
afterEach(async () => {
  await claude?.stop();
  claude = null;
});

/** One turn of 123,000 tokens in context under `args`; what the status line was given, and tower's reading. */
async function oneTurn(args: string[]): Promise<{ cli: StatusLineInput; tower: ReturnType<typeof transcriptUsage> }> {
  claude = await startClaude({
    args,
    script: [
      {
        content: [{ type: 'text', text: 'Counted.' }],
        usage: {
          input_tokens: 3000,
          cache_creation_input_tokens: 20_000,
          cache_read_input_tokens: 100_000,
          output_tokens: 9,
        },
      },
    ],
    settings: { statusLine: { type: 'command', command: 'cat > "$HOME/statusline.json"; echo ok' } },
  });
  const c = claude;
  await c.ready();
  await c.submit('count');
  await c.waitForScreen('Counted.');
  const file = path.join(c.home, 'statusline.json');
  const cli = await waitFor(
    () => {
      try {
        const input = JSON.parse(fs.readFileSync(file, 'utf8')) as StatusLineInput;
        return input.context_window.total_input_tokens === 123_000 && input;
      } catch {
        return false;
      }
    },
    15_000,
    { what: 'the status line to be given the turn' },
  );
  return { cli, tower: transcriptUsage(cli.transcript_path) };
}

describe('the context window, as the real CLI counts it', () => {
  it.each([
    { args: [], model: 'claude-opus-5-5', window: 1_000_000 },
    { args: ['--model', 'claude-sonnet-4-6'], model: 'claude-sonnet-4-6', window: 200_000 },
    { args: ['--model', 'claude-sonnet-4-6[1m]'], model: 'claude-sonnet-4-6', window: 1_000_000 },
  ])(
    'agrees with the CLI for $args',
    async ({ args, model, window }) => {
      const { cli, tower } = await oneTurn(args);
      expect(cli.model.id.replace(/\[1m\]$/, '')).toBe(model);
      expect(cli.context_window.context_window_size).toBe(window);
      expect(tower).not.toBeNull();
      expect(tower!.window).toBe(cli.context_window.context_window_size);
      expect(tower!.used).toBe(123_000);
      expect(Math.abs(tower!.usedPct - cli.context_window.used_percentage)).toBeLessThanOrEqual(1);
    },
    60_000,
  );
});
