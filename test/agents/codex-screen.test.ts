/**
 * Codex 0.169.0's screens and rollout, as captured from the real CLI (scripts/capture-codex-fixtures.ts),
 * read by its agent module: working, waiting at its input box, asking with the dialog read whole
 * (also wrapped at 70 columns), gone once answered; context and tokens from the rollout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexDialogGone, codexOption, codexPrompt, readCodexScreen } from '../../src/agents/codex/screen.js';
import { rolloutUsage, tokenCountUsage } from '../../src/agents/codex/rollout.js';
import { codexWays } from '../../src/agents/codex/ways.js';
import { agentOfPane } from '../../src/agents/registry.js';

const DIR = path.resolve(import.meta.dirname, '..', 'fixtures', 'codex-0.169.0');
const screen = (name: string) => fs.readFileSync(path.join(DIR, 'screens', name), 'utf8');

describe('Codex screens', () => {
  it('reads working from the interrupt hint, though the input box is drawn too', () => {
    const s = screen('working.100x40.txt');
    expect(s).toContain('› Ask Codex to do anything');
    expect(readCodexScreen(s, false, 'node')).toEqual({ activity: 'working', cue: 'interrupt-hint' });
  });

  it('reads waiting at the input box after a turn, idle in a shell', () => {
    expect(readCodexScreen(screen('after-turn.100x40.txt'), false, 'node')).toEqual({
      activity: 'waiting',
      cue: 'prompt',
    });
    expect(readCodexScreen(screen('idle-start.100x40.txt'), false, 'node').activity).toBe('waiting');
    expect(readCodexScreen('$ ls\nfoo\n$', false, 'bash')).toEqual({ activity: 'idle', cue: 'shell' });
  });

  it('reads the dialog whole: question, environment, reason, command, three choices', () => {
    const s = screen('dialog.100x40.txt');
    expect(readCodexScreen(s, false, 'node')).toEqual({ activity: 'waiting', cue: 'question' });
    const p = codexPrompt(s)!;
    expect(p.question).toBe('Would you like to run the following command?');
    expect(p.subject).toEqual([
      'Environment: local',
      'Reason: Create approved.txt outside the sandbox?',
      '$ touch approved.txt',
    ]);
    expect(p.options).toEqual([
      { key: '1', label: 'Yes, proceed (y)' },
      { key: '2', label: "Yes, and don't ask again for commands that start with `touch approved.txt` (p)" },
      { key: '3', label: 'No, and tell Codex what to do differently (esc)' },
    ]);
    expect(codexOption(p, 'y')?.key).toBe('1');
    expect(codexOption(p, 'n')?.key).toBe('3');
    expect(codexOption(p, 'p')?.key).toBe('2');
    expect(codexOption(p, '7')).toBeNull();
  });

  it('joins a choice wrapped at 70 columns, and signs it apart from the wider one', () => {
    const p = codexPrompt(screen('dialog.70x40.txt'))!;
    expect(p.options[1]).toEqual({
      key: '2',
      label: "Yes, and don't ask again for commands that start with `touch approved-with-a-rather-long-name.txt` (p)",
    });
    expect(p.signature).not.toBe(codexPrompt(screen('dialog.100x40.txt'))!.signature);
  });

  it('sees the dialog gone once approved or denied, and no dialog in a screen without one', () => {
    const before = codexPrompt(screen('dialog.100x40.txt'))!;
    for (const name of ['approved.100x40.txt', 'denied.100x40.txt']) {
      expect(codexPrompt(screen(name))).toBeNull();
      expect(codexDialogGone(screen(name), before)).toBe(true);
    }
    expect(codexDialogGone(screen('dialog.100x40.txt'), before)).toBe(false);
  });

  it('types a choice as its key alone, a line as text then a carriage return', () => {
    expect(codexWays.typing.answer({ key: '1', label: 'Yes, proceed (y)' })).toEqual([['-l', '--', '1']]);
    expect(codexWays.typing.line('go on')).toEqual([
      ['-l', '--', 'go on'],
      ['-H', '0D'],
    ]);
  });
});

describe('Codex rollout', () => {
  it('gives context and tokens from the newest token count', () => {
    const u = rolloutUsage(path.join(DIR, 'rollout', 'solo.jsonl'))!;
    expect(u.window).toBe(258_400);
    // The last response of the captured run: the denied command's turn (the stand-in's 3,000 in, 20 out).
    expect(u.used).toBe(3020);
    expect(u.usedPct).toBe(1.2);
    // Totals over the thread: the approved command's two responses had 8,000 and 12,000 cached.
    expect(u.tokens.cacheRead).toBe(20_000);
    expect(u.tokens.output).toBeGreaterThan(49);
  });

  it('passes over lines that are not token counts or make no sense', () => {
    expect(tokenCountUsage('{"type":"event_msg","payload":{"type":"token_count","info":null}}')).toBeNull();
    expect(tokenCountUsage('not json "token_count"')).toBeNull();
    expect(rolloutUsage(path.join(DIR, 'no-such.jsonl'))).toBeNull();
  });
});

describe('telling Codex in a pane', () => {
  it('knows its npm launcher under node, its binary, and not its app server', () => {
    const launcher = ['/usr/bin/node', '/x/node_modules/@openai/codex/bin/codex.js'];
    expect(agentOfPane({ command: 'node', argv: [launcher] })?.id).toBe('codex');
    expect(agentOfPane({ command: 'codex', argv: [] })?.id).toBe('codex');
    expect(agentOfPane({ command: 'node', argv: [['/usr/bin/node', 'server.js']] })).toBeNull();
    expect(
      agentOfPane({ command: 'node', argv: [['/h/.codex/packages/x/bin/codex', 'app-server', '--listen']] }),
    ).toBeNull();
    expect(agentOfPane({ command: 'claude', argv: [] })?.id).toBe('claude-code');
  });
});
