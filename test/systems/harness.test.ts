import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import type { Run } from '../../src/model/model.js';
import {
  CHECKPOINT_NAME,
  classifyStateEntry,
  parseCheckpointDoc,
  parseGrantedFile,
  parseHarnessConfig,
  parseHarnessConfigText,
  parseRunLog,
  readHarnessRun,
  readLogTail,
} from '../../src/systems/harness/read.js';
import { describeHeading } from '../../src/systems/harness/files.js';
import { LOG_TAIL_BYTES } from '../../src/systems/harness/log.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { copyFixture, FIXTURES, setMtime, tempDirsPerTest } from '../helpers/fixtures.js';
import { expectPrintable } from '../helpers/printable.js';

const SAMPLES = path.join(FIXTURES, 'samples/harness');
const NOW = Date.parse('2026-05-08T14:00:00Z');
const settings = { ...DEFAULT_READ_SETTINGS, now: NOW };

const tempDir = tempDirsPerTest('tower-harness-');

/**
 * A copy of a fixture project in a temp dir (so mtimes can be set); returns the project root.
 * Logs are stored as `*.log.fixture` because the repository ignores `*.log`.
 */
function project(fixture: string): string {
  const root = copyFixture(`harness/${fixture}`, tempDir());
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (rel.endsWith('.log.fixture'))
      fs.renameSync(path.join(root, rel), path.join(root, rel.slice(0, -'.fixture'.length)));
  }
  return root;
}

/** A project built from the real samples, in `.papercusp` or `.harness`. */
function sampleProject(stateName: '.papercusp' | '.harness', withConfig = true): { root: string; stateDir: string } {
  const root = path.join(tempDir(), 'sheets-clone');
  const stateDir = path.join(root, stateName);
  fs.mkdirSync(stateDir, { recursive: true });
  for (const f of [
    'checkpoint-plan-approval.md',
    'checkpoint-plan-approval.md.granted',
    '.checkpoint-plan-approval.fired',
    'checkpoint-pre-done.md',
  ]) {
    fs.copyFileSync(path.join(SAMPLES, f), path.join(stateDir, f));
  }
  if (withConfig)
    fs.copyFileSync(path.join(SAMPLES, 'config.with-checkpoints.json'), path.join(stateDir, 'config.json'));
  setMtime(path.join(stateDir, 'checkpoint-plan-approval.md'), Date.parse('2026-05-08T12:00:00Z'));
  setMtime(path.join(stateDir, 'checkpoint-pre-done.md'), Date.parse('2026-05-08T12:34:56.789Z'));
  return { root, stateDir };
}

function writeLog(stateDir: string, text: string, mtime: number): string {
  const file = path.join(stateDir, 'logs', 'run.log');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  setMtime(file, mtime);
  return file;
}

function gate(run: Run, id: string) {
  const g = run.gates.find((x) => x.id === id);
  if (!g) throw new Error(`no gate ${id} in ${JSON.stringify(run.gates.map((x) => x.id))}`);
  return g;
}

describe('readHarnessRun on the real samples', () => {
  it.each(['.papercusp', '.harness'] as const)('reads pending and granted checkpoints from %s', (dir) => {
    const { root, stateDir } = sampleProject(dir);
    const run = readHarnessRun(root, stateDir, settings);
    expect(RunSchema.parse(run)).toBeTruthy();
    expect(run.id).toBe('harness:sheets-clone');
    expect(run.name).toBe('sheets-clone');
    expect(run.problems).toEqual([]);
    expect(run.members).toEqual([]);
    expect(run.gates.map((g) => [g.id, g.state])).toEqual([
      ['plan-approval', 'granted'],
      ['pre-done', 'pending'],
    ]);
    const pending = gate(run, 'pre-done');
    expect(pending).toMatchObject({
      kind: 'checkpoint',
      grantable: true,
      since: '2026-05-08T12:34:56.789Z',
      title: 'pre-done: Human reviews before DONE is emitted',
      file: path.join(stateDir, 'checkpoint-pre-done.md'),
    });
    expect(pending.body).toContain('Please hold before DONE so I can review the diff.');
    const granted = gate(run, 'plan-approval');
    expect(granted).toMatchObject({
      grantable: false,
      since: '2026-05-08T12:00:00.000Z',
      title: 'plan-approval: Human approves the plan before any worker runs',
    });
    expect(granted.body).toContain('Granted at 2026-05-08T13:00:00.000Z.');
    expect(granted.body).toContain('Fired this mission');
    expect(run.status).toBe('waiting');
    expect(run.phase).toBeNull();
  });

  it('titles checkpoints from their heading when config.json is absent', () => {
    const { root, stateDir } = sampleProject('.papercusp', false);
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.problems).toEqual([]);
    expect(gate(run, 'pre-done').title).toBe('pre-done: manual request');
    expect(gate(run, 'plan-approval').title).toBe('plan-approval: auto, triggerOn=post-planner');
  });

  it('agrees with the harness API listing (GET …/checkpoints) on names, grants and waiting times', () => {
    const { root, stateDir } = sampleProject('.papercusp');
    const api = JSON.parse(fs.readFileSync(path.join(SAMPLES, 'GET-checkpoints.response.json'), 'utf8')) as {
      checkpoints: { name: string; waitingSinceMs: number; granted: boolean }[];
    };
    for (const c of api.checkpoints) setMtime(path.join(stateDir, `checkpoint-${c.name}.md`), c.waitingSinceMs);
    const run = readHarnessRun(root, stateDir, settings);
    for (const c of api.checkpoints) {
      const g = gate(run, c.name);
      expect(g.state === 'granted').toBe(c.granted);
      expect(g.since).toBe(new Date(c.waitingSinceMs).toISOString());
    }
  });

  it('accepts the README config, which has no checkpoints key', () => {
    const root = project('no-checkpoints-key');
    const run = readHarnessRun(root, path.join(root, '.papercusp'), settings);
    expect(run.problems).toEqual([]);
    expect(gate(run, 'pre-done')).toMatchObject({ state: 'pending', title: 'pre-done: manual request' });
  });
});

describe('readHarnessRun: checkpoint files', () => {
  it('reports names outside [A-Za-z0-9_.-] as problems and makes no gate of them', () => {
    const root = project('bad-names');
    const run = readHarnessRun(root, path.join(root, '.harness'), settings);
    expect(run.gates.map((g) => g.id)).toEqual(['ok-1']);
    expect(run.problems).toHaveLength(3);
    const messages = run.problems.map((p) => p.message).join('\n');
    expect(messages).toContain('"bad name"');
    expect(messages).toContain('"semi;colon"');
    expect(messages).toContain('"über"');
    expect(run.problems.every((p) => p.file?.startsWith(path.join(root, '.harness')))).toBe(true);
  });

  it('shows a grant whose request is gone as a granted gate and nothing else', () => {
    const root = project('granted-only');
    const stateDir = path.join(root, '.harness');
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.gates).toEqual([
      {
        id: 'plan-approval',
        kind: 'checkpoint',
        state: 'granted',
        since: null,
        grantable: false,
        title: 'plan-approval: checkpoint granted',
        file: path.join(stateDir, 'checkpoint-plan-approval.md.granted'),
        body: 'Granted at 2026-05-08T13:00:00.000Z.',
      },
    ]);
    expect(run.status).toBe('idle');
  });

  it('makes no gate of a fired marker alone', () => {
    const root = project('fired-only');
    const run = readHarnessRun(root, path.join(root, '.papercusp'), settings);
    expect(run.gates).toEqual([]);
    expect(run.problems).toEqual([]);
    expect(run.status).toBe('idle');
  });

  it('strips escape sequences and control characters from titles and bodies', () => {
    const root = project('escapes');
    const run = readHarnessRun(root, path.join(root, '.harness'), settings);
    const g = gate(run, 'esc');
    expect(g.title).toBe('esc: Look here');
    expect(g.body).toContain('By: mallory');
    expect(g.body).toContain('Please review');
    expectPrintable(run);
  });

  it('keeps the gate when config.json is half-written, and reports the config', () => {
    const root = project('broken-config');
    const stateDir = path.join(root, '.harness');
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.problems).toHaveLength(1);
    expect(run.problems[0]).toMatchObject({ file: path.join(stateDir, 'config.json') });
    expect(run.problems[0]?.message).toMatch(/invalid JSON/);
    expect(gate(run, 'a')).toMatchObject({ state: 'pending', title: 'a: manual request' });
  });

  it('keeps an empty, binary, huge or directory checkpoint as a gate, with a problem for the unreadable ones', () => {
    const root = tempDir();
    const stateDir = path.join(root, '.harness');
    fs.mkdirSync(stateDir);
    fs.writeFileSync(path.join(stateDir, 'checkpoint-empty.md'), '');
    fs.writeFileSync(path.join(stateDir, 'checkpoint-bin.md'), Buffer.from([0x23, 0x20, 0x00, 0xff, 0x00]));
    fs.writeFileSync(path.join(stateDir, 'checkpoint-huge.md'), 'x'.repeat(300 * 1024));
    fs.mkdirSync(path.join(stateDir, 'checkpoint-dir.md'));
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.gates.map((g) => [g.id, g.state])).toEqual([
      ['bin', 'pending'],
      ['dir', 'pending'],
      ['empty', 'pending'],
      ['huge', 'pending'],
    ]);
    expect(gate(run, 'empty')).toMatchObject({ title: 'empty: checkpoint requested', body: '' });
    const byFile = Object.fromEntries(run.problems.map((p) => [path.basename(p.file ?? ''), p.message]));
    expect(byFile['checkpoint-bin.md']).toMatch(/binary/);
    expect(byFile['checkpoint-huge.md']).toMatch(/too large/);
    expect(byFile['checkpoint-dir.md']).toMatch(/not a regular file/);
    expect(run.problems).toHaveLength(3);
  });

  it('reports a missing state directory', () => {
    const root = tempDir();
    const run = readHarnessRun(root, path.join(root, '.harness'), settings);
    expect(run.problems).toEqual([{ file: path.join(root, '.harness'), message: 'state directory is missing' }]);
    expect(run.status).toBe('unknown');
  });
});

describe('readHarnessRun: run.log', () => {
  it('turns a last ESCALATE into a red, ungrantable gate and a blocked run', () => {
    const root = project('escalated');
    const stateDir = path.join(root, '.harness');
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.gates).toHaveLength(1);
    const g = gate(run, 'escalation');
    expect(g).toMatchObject({
      kind: 'escalation',
      state: 'pending',
      grantable: false,
      title: 'Escalated: feature-3 failed validation three times',
      since: '2026-05-08T11:20:02.000Z',
      // The harness's own report of the escalation is what there is to read.
      file: path.join(stateDir, 'escalation.md'),
    });
    expect(g.body).toContain('grid re-render test times out');
    expect(run.status).toBe('blocked');
    expect(run.phase).toMatchObject({
      current: 'ESCALATE',
      total: null,
      status: expect.stringMatching(/^last decision: ESCALATE/),
    });
  });

  it('puts an escalation ahead of a pending checkpoint', () => {
    const root = project('escalated');
    const stateDir = path.join(root, '.harness');
    fs.copyFileSync(path.join(SAMPLES, 'checkpoint-pre-done.md'), path.join(stateDir, 'checkpoint-pre-done.md'));
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.gates.map((g) => g.id)).toEqual(['escalation', 'pre-done']);
    expect(run.status).toBe('blocked');
  });

  it('is complete after DONE, and an earlier ESCALATE is no gate', () => {
    const root = project('done');
    const run = readHarnessRun(root, path.join(root, '.papercusp'), settings);
    expect(run.gates).toEqual([]);
    expect(run.status).toBe('complete');
    expect(run.phase).toMatchObject({
      current: 'DONE',
      total: null,
      status: expect.stringMatching(/^last decision: DONE/),
    });
  });

  it('is running while the log is fresh and idle once it is 10 minutes old', () => {
    const root = tempDir();
    const stateDir = path.join(root, '.harness');
    writeLog(stateDir, 'ORCH decision: WORK feature-1\n', NOW - 60_000);
    expect(readHarnessRun(root, stateDir, settings).status).toBe('running');
    writeLog(stateDir, 'ORCH decision: WORK feature-1\n', NOW - 10 * 60_000);
    const idle = readHarnessRun(root, stateDir, settings);
    expect(idle.status).toBe('idle');
    expect(idle.phase?.current).toBe('WORK');
  });

  it('dates an escalation without a timestamp by the log mtime', () => {
    const root = tempDir();
    const stateDir = path.join(root, '.harness');
    writeLog(stateDir, 'ORCH decision: ESCALATE: stuck\n', Date.parse('2026-05-08T10:00:00Z'));
    const g = gate(readHarnessRun(root, stateDir, settings), 'escalation');
    expect(g.since).toBe('2026-05-08T10:00:00.000Z');
    expect(g.title).toBe('Escalated: stuck');
  });

  it('reads only the tail of a 10 MB log', () => {
    const root = tempDir();
    const stateDir = path.join(root, '.harness');
    const filler = `${'worker output line that is fairly long and says nothing at all '.repeat(2)}\n`;
    const body = filler.repeat(Math.ceil((10 * 1024 * 1024) / filler.length));
    // An ESCALATE far from the end is out of sight; the DONE at the end is what counts.
    const file = writeLog(stateDir, `ORCH decision: ESCALATE ancient\n${body}ORCH decision: DONE\n`, NOW - 3600_000);
    expect(fs.statSync(file).size).toBeGreaterThan(10 * 1024 * 1024);
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.gates).toEqual([]);
    expect(run.status).toBe('complete');

    writeLog(stateDir, `ORCH decision: ESCALATE ancient\n${body}`, NOW - 3600_000);
    const quiet = readHarnessRun(root, stateDir, settings);
    expect(quiet.phase).toBeNull();
    expect(quiet.status).toBe('idle');

    const tail = readLogTail(file);
    expect(tail.ok && tail.value.partial).toBe(true);
    expect(tail.ok && Buffer.byteLength(tail.value.text) <= LOG_TAIL_BYTES).toBe(true);
    expect(tail.ok && tail.value.text.startsWith('worker output line')).toBe(true);
  });

  it('reports a run.log that is a directory and still reads the checkpoints', () => {
    const { root, stateDir } = sampleProject('.harness');
    fs.mkdirSync(path.join(stateDir, 'logs', 'run.log'), { recursive: true });
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.problems).toEqual([
      { file: path.join(stateDir, 'logs', 'run.log'), message: expect.stringMatching(/^not a regular file/) },
    ]);
    expect(run.gates).toHaveLength(2);
  });

  it('does not block on a FIFO named run.log or checkpoint-x.md', () => {
    const root = tempDir();
    const stateDir = path.join(root, '.harness');
    fs.mkdirSync(path.join(stateDir, 'logs'), { recursive: true });
    execFileSync('mkfifo', [path.join(stateDir, 'logs', 'run.log'), path.join(stateDir, 'checkpoint-pipe.md')]);
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.problems.map((p) => [path.basename(p.file ?? ''), p.message])).toEqual([
      ['checkpoint-pipe.md', 'not a regular file: it is a FIFO (named pipe)'],
      ['run.log', expect.stringMatching(/^not a regular file/)],
    ]);
    expect(run.gates.map((g) => g.id)).toEqual(['pipe']);
  });

  it('survives a binary, escape-ridden log', () => {
    const root = tempDir();
    const stateDir = path.join(root, '.harness');
    writeLog(
      stateDir,
      '\u0000\u0001garbage\n\u001b[31mORCH decision: ESCALATE \u001b]0;x\u0007bad\u0000 news\r\n',
      NOW,
    );
    const run = readHarnessRun(root, stateDir, settings);
    expect(gate(run, 'escalation').title).toBe('Escalated: bad news');
    expectPrintable(run);
  });
});

describe('harness parsers', () => {
  it('parseRunLog finds the last decision, its verb, reason and timestamp', () => {
    const log = [
      '2026-05-08 09:00:00Z ORCH decision: work feature-1',
      '[2026-05-08T10:00:00.500+02:00] ORCH decision: CHECKPOINT — pre-done',
      'ORCH decision: noise-with-dash',
      '',
    ].join('\n');
    expect(parseRunLog(log, 'run.log').value).toEqual({
      verb: 'NOISE-WITH-DASH',
      rest: '',
      role: null,
      batch: null,
      at: null,
    });
    const two = log.split('\n').slice(0, 2).join('\n');
    expect(parseRunLog(two, 'run.log').value).toEqual({
      verb: 'CHECKPOINT',
      rest: 'pre-done',
      role: null,
      batch: null,
      at: '2026-05-08T08:00:00.500Z',
    });
    expect(parseRunLog(log.split('\n')[0] ?? '', 'run.log').value).toEqual({
      verb: 'WORK',
      rest: 'feature-1',
      role: null,
      batch: null,
      at: '2026-05-08T09:00:00.000Z',
    });
    expect(parseRunLog('nothing here\nORCH decision:\n', 'run.log').value).toBeNull();
  });

  it('parseCheckpointDoc reads both templates', () => {
    const auto = parseCheckpointDoc(
      fs.readFileSync(path.join(SAMPLES, 'checkpoint-plan-approval.md'), 'utf8'),
      'x',
    ).value;
    expect(auto).toMatchObject({
      heading: 'Checkpoint: plan-approval (auto, triggerOn=post-planner)',
      requestedAt: '2026-05-08T12:00:00.000Z',
      trigger: 'scoper + reviewer both passed for the first time.',
      by: null,
    });
    const manual = parseCheckpointDoc(fs.readFileSync(path.join(SAMPLES, 'checkpoint-pre-done.md'), 'utf8'), 'x').value;
    expect(manual).toMatchObject({
      heading: 'Checkpoint: pre-done (manual request)',
      requestedAt: '2026-05-08T12:34:56.789Z',
      by: 'human operator via UI',
    });
    expect(parseCheckpointDoc('Requested at: soon\n', 'x').value).toMatchObject({ heading: null, requestedAt: 'soon' });
  });

  it('describeHeading drops the redundant name, keeps other headings', () => {
    expect(describeHeading('Checkpoint: a (manual request)', 'a')).toBe('manual request');
    expect(describeHeading('Checkpoint: a', 'a')).toBe('Checkpoint: a');
    expect(describeHeading('Review the plan', 'a')).toBe('Review the plan');
  });

  it('parseGrantedFile reads the grant time, and accepts an empty touch', () => {
    expect(parseGrantedFile('granted at 2026-05-08T13:00:00.000Z\n', 'g').value).toBe('2026-05-08T13:00:00.000Z');
    expect(parseGrantedFile('', 'g').value).toBeNull();
  });

  it('parseHarnessConfig reads declared types and reports bad ones', () => {
    const sample = JSON.parse(fs.readFileSync(path.join(SAMPLES, 'config.with-checkpoints.json'), 'utf8')) as unknown;
    const cfg = parseHarnessConfig(sample, 'c').value;
    expect(cfg.enabled).toBe(true);
    expect(cfg.types.map((t) => [t.name, t.triggerOn])).toEqual([
      ['plan-approval', 'post-planner'],
      ['pre-done', 'pre-done'],
      ['db-migration', 'feature-claim:db'],
      ['design-review', null],
    ]);
    expect(cfg.types[2]?.triggerDoc).toBe('Fire before the first feature with a DB-modifying claim');
    expect(cfg.models).toEqual({ orchestrator: 'haiku', worker: 'sonnet', validator: 'opus' });

    const bad = parseHarnessConfig({ checkpoints: { types: [{ name: 'a b' }, 3, { name: 'ok' }] } }, 'c');
    expect(bad.value.enabled).toBe(false);
    expect(bad.value.types.map((t) => t.name)).toEqual(['ok']);
    expect(bad.problems.map((p) => p.message)).toEqual([
      'checkpoints.types[0]: invalid name "a b"',
      'checkpoints.types[1] has no name',
    ]);
    expect(parseHarnessConfig({ checkpoints: [] }, 'c').problems).toEqual([
      { file: 'c', message: '`checkpoints` is not an object' },
    ]);
    expect(parseHarnessConfig([], 'c').problems).toHaveLength(1);
    expect(parseHarnessConfigText('', 'c').problems).toEqual([{ file: 'c', message: 'file is empty' }]);
  });

  it('classifyStateEntry tells the sentinel files apart', () => {
    expect(classifyStateEntry('checkpoint-a.b_c-1.md')).toEqual({ kind: 'pending', name: 'a.b_c-1' });
    expect(classifyStateEntry('checkpoint-a.md.granted')).toEqual({ kind: 'granted', name: 'a' });
    expect(classifyStateEntry('.checkpoint-a.fired')).toEqual({ kind: 'fired', name: 'a' });
    expect(classifyStateEntry('checkpoint-a b.md')).toEqual({ kind: 'bad-name', name: 'a b' });
    expect(classifyStateEntry('config.json')).toEqual({ kind: 'other' });
    expect(classifyStateEntry('checkpoint-a.md.tmp')).toEqual({ kind: 'other' });
    expect(CHECKPOINT_NAME.test('plan-approval')).toBe(true);
    expect(CHECKPOINT_NAME.test('../x')).toBe(false);
  });
});
