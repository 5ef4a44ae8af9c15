/**
 * Where each session's hooks last ran, read from a real events file (and the one it was rotated
 * to): the newest event wins, `/clear` keeps the seat and any other SessionEnd ends it, lines that
 * name no server or no pane seat nothing, sockets are told apart by their full path, and the map
 * is bounded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookLeads, MAX_SEATS } from '../../src/store/hook-leads.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';

const tempDir = tempDirsPerTest('tower-hook-leads-');

const line = (pane: string, server: string, session: string, event: string, extra = '') =>
  `1795706011\t${pane}\t${server}\t{"session_id":"${session}","cwd":"/p","hook_event_name":"${event}"${extra}}\n`;

describe('HookLeads', () => {
  it('takes the newest event of a session, the rotated file first, and tells servers by their sockets', () => {
    const dir = tempDir();
    const file = path.join(dir, 'events');
    const own = path.join(dir, 'own');
    const swarm = path.join(dir, 'claude-swarm-4242');
    fs.writeFileSync(`${file}.1`, line('%1', own, 's-a', 'SessionStart') + line('%4', own, 's-b', 'Stop'));
    fs.writeFileSync(file, line('%2', swarm, 's-a', 'UserPromptSubmit'));
    const hooks = new HookLeads(file);
    expect(hooks.refresh()).toBe(true);
    const seats = hooks.seatsOn(own, [{ name: 'claude-swarm-4242', path: swarm }]);
    expect(seats('s-a')).toEqual({ paneId: '%2', server: 'claude-swarm-4242' });
    expect(seats('s-b')).toEqual({ paneId: '%4', server: null });
    expect(seats('s-c')).toBeNull();
    // A socket of the same name in another folder is another server.
    const lookalike = path.join(dir, 'elsewhere', 'claude-swarm-4242');
    fs.appendFileSync(file, line('%2', lookalike, 's-a', 'Stop'));
    expect(hooks.refresh()).toBe(true);
    expect(hooks.seatsOn(own, [{ name: 'claude-swarm-4242', path: swarm }])('s-a')).toEqual({
      paneId: '%2',
      foreign: lookalike,
    });
    // Another event from the same seat changes nothing.
    fs.appendFileSync(file, line('%2', lookalike, 's-a', 'PreToolUse'));
    expect(hooks.refresh()).toBe(false);
  });

  it('keeps the seat over /clear, ends it on any other SessionEnd, and ignores lines with no server or pane', () => {
    const dir = tempDir();
    const file = path.join(dir, 'events');
    const own = path.join(dir, 'own');
    fs.writeFileSync(
      file,
      line('%1', own, 's-a', 'SessionStart') +
        line('%1', own, 's-a', 'SessionEnd', ',"reason":"clear"') +
        line('%1', own, 's-b', 'SessionStart') +
        line('%1', own, 's-b', 'SessionEnd', ',"reason":"prompt_input_exit"') +
        `1795706011\t%5\t{"session_id":"s-c","hook_event_name":"Stop"}\n` +
        line('', '', 's-d', 'Stop'),
    );
    const hooks = new HookLeads(file);
    hooks.refresh();
    const seats = hooks.seatsOn(own, []);
    expect(seats('s-a')).toEqual({ paneId: '%1', server: null });
    expect(seats('s-b')).toBeNull();
    expect(seats('s-c')).toBeNull();
    expect(seats('s-d')).toBeNull();
  });

  it(`remembers at most ${MAX_SEATS} sessions, the oldest going first`, () => {
    const dir = tempDir();
    const file = path.join(dir, 'events');
    const own = path.join(dir, 'own');
    let text = '';
    for (let i = 0; i <= MAX_SEATS; i++) text += line('%1', own, `s-${i}`, 'Stop');
    fs.writeFileSync(file, text);
    const hooks = new HookLeads(file);
    hooks.refresh();
    expect(hooks.seatOf('s-0')).toBeNull();
    expect(hooks.seatOf('s-1')).not.toBeNull();
    expect(hooks.seatOf(`s-${MAX_SEATS}`)).not.toBeNull();
  });
});
