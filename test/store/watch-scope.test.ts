import { describe, expect, it } from 'vitest';
import { WatchScope } from '../../src/store/watch-scope.js';

const claude = '/home/me/.claude';
const scope = new WatchScope(claude, (name) => name === 'known-team');
scope.setRoots(['/p/app', '/p/mono'], ['/p/app/.claude/tina', '/p/app/.harness', '/p/mono/memory/state']);

describe('WatchScope.ignored: only state directories are watched', () => {
  it.each([
    ['/p/app', false],
    ['/p/app/.claude', false], // leads to .claude/tina
    ['/p/app/.claude/tina', false],
    ['/p/app/.claude/tina/phase-2', false],
    ['/p/app/.claude/tina/phase-2/status.json', false],
    ['/p/app/.claude/tina/phase-2/deep/er', true],
    ['/p/app/.claude/settings.json', true],
    ['/p/app/.claude/commands', true],
    ['/p/app/src', true],
    ['/p/app/node_modules', true],
    ['/p/app/README.md', true],
    ['/p/app/.sage', false], // a marker may appear here later
    ['/p/app/.harness/logs/run.log', false],
    ['/p/app/.harness/logs/hooks/x.log', true],
    ['/p/mono/memory/state/.archive', true],
    ['/p/mono/memory/reports', true],
    ['/elsewhere/file', true],
  ])('%s → ignored %s', (p, ignored) => {
    expect(scope.ignored(p)).toBe(ignored);
  });

  it.each([
    [claude, false],
    [`${claude}/projects`, true], // session transcripts: huge and busy
    [`${claude}/history.jsonl`, true],
    [`${claude}/teams`, false],
    [`${claude}/teams/any-team`, false],
    [`${claude}/teams/any-team/config.json`, false],
    [`${claude}/teams/any-team/inboxes`, true],
    [`${claude}/tasks`, false],
    [`${claude}/tasks/known-team`, false],
    [`${claude}/tasks/known-team/3.json`, false],
    [`${claude}/tasks/known-team/.lock`, true],
    [`${claude}/tasks/some-session-uuid`, true], // task lists of sessions that are no team
    [`${claude}/tina-sessions/feat.json`, false],
  ])('%s → ignored %s', (p, ignored) => {
    expect(scope.ignored(p)).toBe(ignored);
  });
});

describe('WatchScope.classify: what a change means', () => {
  it('maps paths to a team, a source, or rediscovery', () => {
    expect(scope.classify(`${claude}/tasks/known-team/3.json`)).toEqual({ kind: 'team', dirName: 'known-team' });
    expect(scope.classify(`${claude}/teams/t/config.json`)).toEqual({ kind: 'team', dirName: 't' });
    expect(scope.classify(`${claude}/teams`)).toEqual({ kind: 'all-teams' });
    expect(scope.classify(`${claude}/tina-sessions/x.json`)).toEqual({ kind: 'rediscover' });
    expect(scope.classify('/p/app/.claude/tina/phase-2/status.json')).toEqual({
      kind: 'source',
      stateDir: '/p/app/.claude/tina',
      rediscover: false,
    });
    expect(scope.classify('/p/app/.claude/tina')).toEqual({
      kind: 'source',
      stateDir: '/p/app/.claude/tina',
      rediscover: true,
    });
    expect(scope.classify('/p/app/.sage')).toEqual({ kind: 'rediscover' });
    expect(scope.classify('/q/other')).toEqual({ kind: 'none' });
  });
});

describe('WatchScope: the extra files a system module names', () => {
  const extra = new WatchScope(claude, () => false);
  extra.setRoots(['/p/epic'], ['/p/epic/.sage/state']);

  it("watches SAGE's orchestrator log (and the folders leading to it), nothing else beside it", () => {
    expect(extra.ignored('/p/epic/.sage/logs')).toBe(false);
    expect(extra.ignored('/p/epic/.sage/logs/orchestrator-v2.log')).toBe(false);
    expect(extra.ignored('/p/epic/.sage/logs/worker.log')).toBe(true);
  });

  it('re-reads the SAGE run of that root when the log changes', () => {
    expect(extra.classify('/p/epic/.sage/logs/orchestrator-v2.log')).toEqual({
      kind: 'source',
      stateDir: '/p/epic/.sage/state',
      rediscover: false,
    });
  });
});
