/**
 * The harness that runs the real Claude Code CLI: it starts with no screen in the way, talks only to
 * the stand-in, draws a real permission dialog, and leaves nothing behind when stopped.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from '../helpers/claude-cli/binary.js';
import { pidAlive } from '../../src/kit/process-tree.js';
import { startClaude, type ClaudeRun } from '../helpers/claude-cli/launch.js';
import { askForDialog, bashTurn } from '../helpers/claude-cli/scenarios.js';

let run: ClaudeRun | null = null;
afterEach(async () => {
  await run?.stop();
  run = null;
});

describe('the real Claude Code CLI in tmux', () => {
  it('starts at its input box, asks the stand-in, draws a Bash dialog, and stops leaving nothing', async () => {
    run = await startClaude({ script: [bashTurn('run step 1', 'out-a.txt', { say: 'Step 1: Bash.' })] });
    const first = await run.ready();
    expect(first).toContain(`Claude Code v${CLAUDE_CODE_VERSION}`);
    expect(first).toContain('manual mode on');
    const dialog = await askForDialog(run, 'run step 1');
    expect(dialog).toMatch(/❯ 1\. Yes\n/);
    expect(dialog).toMatch(/4\. No$/m);
    expect(run.api.pending()).toBe(0);
    expect(run.api.requests.filter((r) => r.path === '/v1/messages').length).toBeGreaterThan(0);
    const { dir, pid } = run;
    await run.stop();
    run = null;
    expect(fs.existsSync(dir)).toBe(false);
    expect(pidAlive(pid)).toBe(false);
  });
});
