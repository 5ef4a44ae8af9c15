/**
 * Bidi controls and zero-width characters in names and titles are shown escaped (`<U+202E>`),
 * never obeyed: one rule applied at read time, so the screen, `status` text and `status --json`
 * all say the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statusCommand } from '../../src/commands/status.js';
import { sanitize, sanitizeLine } from '../../src/text/sanitize.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { renderRoom, waitForText } from '../ui/helpers.js';
import type { Snapshot } from '../../src/model/model.js';

const RLO = '\u202e';
const HIDDEN = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
];

describe('the sanitizer', () => {
  it('escapes every bidi control and zero-width character visibly', () => {
    for (const ch of HIDDEN) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      expect(sanitize(`a${ch}b`)).toBe(`a<U+${code}>b`);
      expect(sanitizeLine(`a${ch}b`)).toBe(`a<U+${code}>b`);
    }
    expect(sanitizeLine(`invoice${RLO}fdp.exe`)).toBe('invoice<U+202E>fdp.exe');
    // Ordinary text, wide characters and emoji without joiners pass unchanged.
    expect(sanitizeLine('héllo 漢字 ✓')).toBe('héllo 漢字 ✓');
  });
});

describe('hostile names on screen, in status and in status --json', () => {
  let claudeDir: string;
  beforeEach(() => {
    claudeDir = tempDir('tower-claude-');
    writeFile(path.join(claudeDir, 'teams', 'evil', 'config.json'), {
      name: `evil${RLO}txt.exe`,
      leadAgentId: 'lead@evil',
      members: [{ agentId: 'lead@evil', name: `le\u200bad`, agentType: 'team-lead', tmuxPaneId: 'in-process' }],
    });
    writeFile(path.join(claudeDir, 'tasks', 'evil', '1.json'), {
      id: '1',
      subject: `fix \u2066login\u2069`,
      status: 'pending',
      blockedBy: [],
    });
  });
  afterEach(() => fs.rmSync(claudeDir, { recursive: true, force: true }));

  it('status text and JSON show the escapes, never the raw characters', async () => {
    const text = testContext({ claudeDir, socketName: uniqueSocketName() });
    expect(await statusCommand(text, { json: false })).toBe(0);
    expect(text.stdout()).toContain('evil<U+202E>txt.exe');
    const json = testContext({ claudeDir, socketName: uniqueSocketName() });
    expect(await statusCommand(json, { json: true })).toBe(0);
    const snap = JSON.parse(json.stdout()) as Snapshot;
    const run = snap.runs.find((r) => r.name.startsWith('evil'));
    expect(run?.name).toBe('evil<U+202E>txt.exe');
    expect(run?.members[0]?.name).toBe('le<U+200B>ad');
    expect(run?.tasks[0]?.subject).toBe('fix <U+2066>login<U+2069>');
    for (const out of [text.stdout(), json.stdout()]) {
      for (const ch of HIDDEN) expect(out).not.toContain(ch);
    }

    const room = renderRoom({ snapshot: snap, columns: 120, rows: 30 });
    await waitForText(room.screen, 'evil<U+202E>txt.exe');
    for (const ch of HIDDEN) expect(room.screen.frame()).not.toContain(ch);
    room.screen.unmount();
  });
});
