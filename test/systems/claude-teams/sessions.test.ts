/**
 * Claude Code's session files (`~/.claude/sessions/<pid>.json`) as 2.1.332 writes them (captured in
 * test/fixtures/claude-code-2.1.332/sessions): parsed and cleaned, live only while their pid runs the
 * process that wrote them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../src/model/model.js';
import {
  liveSessionOf,
  parseSession,
  procStartOf,
  sessionFileNames,
  sessionIsLive,
} from '../../../src/systems/claude-teams/sessions.js';
import { tempDir, writeFile } from '../../helpers/box.js';

const CAPTURED = path.join(import.meta.dirname, '../../fixtures/claude-code-2.1.332/sessions');
const captured = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(CAPTURED, name), 'utf8')) as Record<string, unknown>;

describe('Claude Code session files', () => {
  it('reads each captured file: status, what it waits for, the pane it names', () => {
    const problems: Problem[] = [];
    const at = (name: string) => parseSession(captured(name), `/x/${captured(name).pid}.json`, problems);
    expect(at('busy.json')).toMatchObject({ status: 'busy', waitingFor: null, tmuxPane: '%0', version: '2.1.332' });
    expect(at('waiting-permission.json')).toMatchObject({ status: 'waiting', waitingFor: 'permission prompt' });
    expect(at('idle-after-turn.json')).toMatchObject({ status: 'idle', waitingFor: null });
    expect(at('lead-waiting-teammate.json')?.statusAt).toBe(captured('lead-waiting-teammate.json').statusUpdatedAt);
    expect(problems).toEqual([]);
  });

  it('refuses what is not a session file, one problem each, and cleans what it keeps', () => {
    const problems: Problem[] = [];
    const base = captured('waiting-permission.json');
    expect(parseSession([], '/x/1.json', problems)).toBeNull();
    expect(parseSession({ ...base, pid: 'x' }, '/x/1.json', problems)).toBeNull();
    expect(parseSession({ ...base, procStart: '12; rm' }, `/x/${base.pid}.json`, problems)).toBeNull();
    expect(parseSession({ ...base, sessionId: '../../etc' }, `/x/${base.pid}.json`, problems)).toBeNull();
    expect(parseSession(base, '/x/999999.json', problems)).toBeNull();
    expect(problems).toHaveLength(5);
    const odd = parseSession(
      { ...base, status: 'dancing', waitingFor: 'x\u001b[2J', tmux: 'a:@1.%2\n', name: 'n\u0007'.repeat(200) },
      `/x/${base.pid}.json`,
      [],
    );
    expect(odd).toMatchObject({ status: 'unknown', waitingFor: null, tmuxPane: null });
    expect(odd!.name!.length).toBeLessThanOrEqual(100);
    expect(odd!.name).not.toMatch(/\u0007/);
  });

  it('is live only while its pid runs the process that wrote it (procStart)', () => {
    const own = procStartOf(process.pid)!;
    expect(own).toMatch(/^\d+$/);
    expect(sessionIsLive({ pid: process.pid, procStart: own })).toBe(true);
    expect(sessionIsLive({ pid: process.pid, procStart: String(Number(own) + 1) })).toBe(false);
    const claudeDir = path.join(tempDir('tower-sessions-'), '.claude');
    writeFile(path.join(claudeDir, 'sessions', `${process.pid}.json`), {
      ...captured('busy.json'),
      pid: process.pid,
      procStart: own,
    });
    writeFile(path.join(claudeDir, 'sessions', 'notes.json'), {});
    expect(sessionFileNames(claudeDir)).toEqual([`${process.pid}.json`]);
    expect(liveSessionOf(claudeDir, process.pid)?.status).toBe('busy');
    expect(liveSessionOf(claudeDir, process.pid, '1')).toBeNull();
    // A reused pid: the file's process started at another time.
    writeFile(path.join(claudeDir, 'sessions', `${process.pid}.json`), {
      ...captured('busy.json'),
      pid: process.pid,
      procStart: '1',
    });
    expect(liveSessionOf(claudeDir, process.pid)).toBeNull();
  });
});
