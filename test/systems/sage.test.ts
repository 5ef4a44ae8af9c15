import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import type { Run } from '../../src/model/model.js';
import {
  parseLastSignal,
  parseResumeSignal,
  parseSageSignals,
  parseSageState,
  readSageRun,
} from '../../src/systems/sage/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { copyFixture, FIXTURES, setMtime, tempDirsPerTest } from '../helpers/fixtures.js';
import { expectPrintable } from '../helpers/printable.js';

const SAMPLES = path.join(FIXTURES, 'samples/sage');
const settings = { ...DEFAULT_READ_SETTINGS, now: Date.parse('2026-05-08T14:00:00Z') };
const T = (iso: string): number => Date.parse(iso);

const tempDir = tempDirsPerTest('tower-sage-');

/** A copy of a fixture project; returns its root and state dir. */
function project(fixture: string): { root: string; stateDir: string } {
  const root = copyFixture(`sage/${fixture}`, tempDir());
  return { root, stateDir: path.join(root, '.sage', 'state') };
}

/** An empty project with a state dir. */
function bare(): { root: string; stateDir: string } {
  const root = path.join(tempDir(), 'shop');
  const stateDir = path.join(root, '.sage', 'state');
  fs.mkdirSync(stateDir, { recursive: true });
  return { root, stateDir };
}

function write(file: string, content: string | Buffer, mtime: number): void {
  fs.writeFileSync(file, content);
  setMtime(file, mtime);
}

function read(p: { root: string; stateDir: string }): Run {
  const run = readSageRun(p.root, p.stateDir, settings);
  RunSchema.parse(run);
  return run;
}

describe('readSageRun on the real samples', () => {
  it('reads the nested checkpoint template as a running epic, placeholders and all', () => {
    const p = bare();
    fs.copyFileSync(path.join(SAMPLES, 'checkpoint.nested.template.json'), path.join(p.stateDir, 'checkpoint.json'));
    const run = read(p);
    expect(run.problems).toEqual([]);
    expect(run.id).toBe('sage:{epic_id}');
    expect(run.status).toBe('running');
    expect(run.gates).toEqual([]);
    expect(run.phase).toEqual({
      current: '{DESIGN|PLAN|BUILD|VALIDATE}',
      total: null,
      status: '{in_progress|paused|blocked}',
    });
    expect(run.tasks.map((t) => [t.id, t.subject, t.status])).toEqual([
      [
        '{current_story_id}#{current_task_number}',
        '{plan|implement|test|review} (task {current_task_number}/{total_tasks_in_story})',
        '{in_progress|paused|blocked}',
      ],
      ['...', 'story ...', 'done'],
    ]);
  });

  it('reports the flat heredoc template (unexpanded $vars) as invalid JSON', () => {
    const p = bare();
    fs.copyFileSync(
      path.join(SAMPLES, 'current-checkpoint.flat.heredoc-template.txt'),
      path.join(p.stateDir, 'current-checkpoint.json'),
    );
    const run = read(p);
    expect(run.name).toBe('shop');
    expect(run.problems).toHaveLength(1);
    expect(run.problems[0]).toMatchObject({ file: path.join(p.stateDir, 'current-checkpoint.json') });
    expect(run.problems[0]?.message).toMatch(/invalid JSON/);
    expect(run.status).toBe('unknown');
  });

  it('does not mistake the run-epic JSON schema for a state file', () => {
    const p = bare();
    fs.copyFileSync(path.join(SAMPLES, 'run-epic.state-schema.json'), path.join(p.stateDir, 'run-epic.json'));
    const run = read(p);
    expect(run.problems.map((x) => x.message)).toEqual([
      'not a SAGE checkpoint (keys: $schema, title, description, type, required)',
    ]);
  });

  it('parses the printed checkpoint box of write-checkpoint step 6', () => {
    const box = fs.readFileSync(path.join(SAMPLES, 'signal-block.txt'), 'utf8');
    expect(parseSageSignals(box)).toEqual([
      {
        type: 'CHECKPOINT',
        payload: null,
        fields: {
          CHECKPOINT_FILE: '.sage/state/{epic_id}.json',
          COMMIT: '{commit_hash}',
          NEXT_ACTION: '{next_action.type}',
        },
      },
    ]);
    const p = bare();
    write(path.join(p.stateDir, '.last_signal'), box, T('2026-05-08T12:00:00Z'));
    expect(read(p).gates).toEqual([]);
  });
});

describe('readSageRun: the three shapes', () => {
  it('nested <epic>.json: epic, phase, current task, completed stories', () => {
    const run = read(project('nested-hitl'));
    expect(run.name).toBe('EPIC-7');
    expect(run.phase).toEqual({ current: 'PLAN', total: null, status: 'in_progress' });
    expect(run.tasks).toEqual([
      { id: '7-2#2', subject: 'plan (task 2/5)', status: 'awaiting approval', owner: null, blockedBy: [] },
      { id: '7-1', subject: 'story 7-1', status: 'done', owner: null, blockedBy: [] },
    ]);
    expect(run.members).toEqual([]);
    expect(run.problems).toEqual([]);
  });

  it('flat current-checkpoint.json', () => {
    const run = read(project('flat'));
    expect(run.name).toBe('epic-3');
    expect(run.status).toBe('running');
    expect(run.phase).toEqual({ current: 'BUILD', total: null, status: 'in_progress' });
    expect(run.tasks).toEqual([
      { id: '3-1#5', subject: 'BUILD (task 5)', status: 'in_progress', owner: null, blockedBy: [] },
    ]);
  });

  it('checkpoint.json in the nested shape, blocked epic', () => {
    const run = read(project('checkpoint-nested'));
    expect(run.name).toBe('EPIC-7');
    expect(run.status).toBe('blocked');
    expect(run.gates).toEqual([]);
  });

  it('checkpoint.json in the flat shape, complete', () => {
    const run = read(project('checkpoint-flat'));
    expect(run.name).toBe('epic-4');
    expect(run.status).toBe('complete');
  });

  it('the run-epic orchestrator state', () => {
    const run = read(project('run-epic'));
    expect(run.name).toBe('EPIC-002');
    expect(run.status).toBe('running');
    expect(run.phase).toEqual({ current: '03-implement', total: null, status: 'in_progress' });
    expect(run.tasks.map((t) => [t.id, t.subject, t.status])).toEqual([
      ['2-2#2', '03-implement (task 2/4)', 'in_progress'],
      ['2-1', 'story 2-1', 'done'],
    ]);
  });

  it('run-epic at phase done, and a nested epic whose stories are all complete, are complete', () => {
    const p = project('run-epic');
    const file = path.join(p.stateDir, 'run-epic-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...state, phase: 'done', current_story_index: 3 }));
    expect(read(p).status).toBe('complete');
    expect(read(project('complete')).status).toBe('complete');
  });

  it('picks the most recently updated epic and reports files it cannot use', () => {
    const p = project('multi');
    const run = read(p);
    expect(run.name).toBe('EPIC-2');
    const byFile = Object.fromEntries(run.problems.map((x) => [path.basename(x.file ?? ''), x.message]));
    expect(Object.keys(byFile).sort()).toEqual(['broken.json', 'settings.json']);
    expect(byFile['broken.json']).toMatch(/invalid JSON/);
    expect(byFile['settings.json']).toMatch(/not a SAGE checkpoint/);
    expect(run.status).toBe('running');
  });

  it('falls back to file mtimes when the state carries no update time', () => {
    const p = bare();
    write(
      path.join(p.stateDir, 'a.json'),
      JSON.stringify({ epic_id: 'old', story_id: '1' }),
      T('2026-05-08T10:00:00Z'),
    );
    write(
      path.join(p.stateDir, 'b.json'),
      JSON.stringify({ epic_id: 'new', story_id: '2' }),
      T('2026-05-08T11:00:00Z'),
    );
    expect(read(p).name).toBe('new');
    setMtime(path.join(p.stateDir, 'a.json'), T('2026-05-08T12:00:00Z'));
    expect(read(p).name).toBe('old');
  });
});

describe('readSageRun: the human gate', () => {
  it('next_action hitl is a pending, grantable approval gate; the run waits', () => {
    const p = project('nested-hitl');
    const run = read(p);
    expect(run.status).toBe('waiting');
    expect(run.gates).toHaveLength(1);
    const g = run.gates[0];
    expect(g).toMatchObject({
      id: 'hitl',
      kind: 'approval',
      state: 'pending',
      grantable: true,
      title: 'Approve the plan for story 7-2 (touches the auth middleware)',
      since: '2026-05-08T12:00:00.000Z',
      file: path.join(p.stateDir, 'EPIC-7.json'),
    });
    expect(g?.body).toContain('Plan for story 7-2 rewrites token refresh.\nReview docs/stories/7-2.plan.md');
  });

  it('an unread answer newer than the state answers it (any status); an older one does not', () => {
    const p = project('nested-hitl');
    const stateFile = path.join(p.stateDir, 'EPIC-7.json');
    const resume = path.join(p.stateDir, '.resume-signal');
    setMtime(stateFile, T('2026-05-08T12:00:00Z'));

    write(resume, 'STATUS: APPROVED\n', T('2026-05-08T12:05:00Z'));
    let run = read(p);
    expect(run.gates[0]).toMatchObject({ state: 'granted', grantable: false });
    expect(run.status).toBe('running');
    expect(run.tasks[0]?.status).toBe('in_progress');

    write(resume, 'STATUS: APPROVED\n', T('2026-05-08T11:00:00Z'));
    run = read(p);
    expect(run.gates[0]).toMatchObject({ state: 'pending', grantable: true });
    expect(run.gates[0]?.body).toContain('STATUS: APPROVED (older than this gate)');

    // REVISE is an answer too: granting over it could be read at the NEXT gate, once this one is consumed.
    write(resume, 'STATUS: REVISE\nplease split task 3\n', T('2026-05-08T12:05:00Z'));
    run = read(p);
    expect(run.gates[0]).toMatchObject({
      state: 'granted',
      grantable: false,
      title: 'Approve the plan for story 7-2 (touches the auth middleware) (answered REVISE)',
    });
    expect(run.gates[0]?.body).toContain('Answered in .resume-signal: REVISE');
    expect(run.status).toBe('running');
  });

  it('a HITL_REQUIRED signal raises the gate too, dated by the signal, naming the state file', () => {
    const p = project('signal-hitl');
    setMtime(path.join(p.stateDir, '.last_signal'), T('2026-05-08T12:10:00Z'));
    const run = read(p);
    expect(run.status).toBe('waiting');
    const g = run.gates[0];
    expect(g).toMatchObject({
      id: 'hitl',
      state: 'pending',
      title: 'Human review required',
      since: '2026-05-08T12:10:00.000Z',
      file: path.join(p.stateDir, 'current-checkpoint.json'),
    });
    expect(g?.body).toContain('SAGE_SIGNAL:HITL_REQUIRED:issue:42');
    expect(g?.body).toContain('GitHub issue #42 opened');
    expect(g?.body).toContain('Pending checkpoint: .sage/state/epic-3.json');

    write(path.join(p.stateDir, '.resume-signal'), 'STATUS: APPROVED\n', T('2026-05-08T12:20:00Z'));
    expect(read(p).gates[0]?.state).toBe('granted');
  });

  it.each([
    ['HITL_REQUIRED\n', true],
    ['SAGE_SIGNAL:HITL_REQUIRED\n', true],
    ['====\nSAGE_SIGNAL:HITL_REQUIRED\nREVIEW_TYPE: prd\n====\n', true],
    ['CHECKPOINT:WRITE\n', false],
    ['SAGE_SIGNAL:CHECKPOINT:WRITE:epic-3:3-1:phase-2:5\n', false],
  ])('.last_signal %j raises a gate: %s', (content, gated) => {
    const p = project('flat');
    write(path.join(p.stateDir, '.last_signal'), content, T('2026-05-08T12:00:00Z'));
    const run = read(p);
    expect(run.gates.length === 1).toBe(gated);
    expect(run.status).toBe(gated ? 'waiting' : 'running');
  });

  it('FATAL_ERROR blocks the run; EPIC_COMPLETE completes it', () => {
    const p = project('flat');
    write(
      path.join(p.stateDir, '.last_signal'),
      'SAGE_SIGNAL:FATAL_ERROR:MAX_RETRIES_EXCEEDED:3 tries\n',
      T('2026-05-08T12:00:00Z'),
    );
    expect(read(p).status).toBe('blocked');
    write(path.join(p.stateDir, '.last_signal'), 'EPIC_COMPLETE:epic-3:success\n', T('2026-05-08T12:00:00Z'));
    expect(read(p).status).toBe('complete');
  });

  it('a pending checkpoint with no gate becomes a warning', () => {
    const p = project('flat');
    write(path.join(p.stateDir, '.pending_checkpoint'), '.sage/state/epic-3.json\n', T('2026-05-08T12:00:00Z'));
    expect(read(p).warnings).toEqual(['checkpoint pending: .sage/state/epic-3.json']);
  });

  it('reports an unrecognised .resume-signal and .last_signal; the orchestrator takes the answer as approval, so it answers the gate', () => {
    const p = project('nested-hitl');
    setMtime(path.join(p.stateDir, 'EPIC-7.json'), T('2026-05-08T12:00:00Z'));
    write(path.join(p.stateDir, '.resume-signal'), 'yes please\n', T('2026-05-08T13:00:00Z'));
    write(path.join(p.stateDir, '.last_signal'), 'whatever happened\n', T('2026-05-08T13:00:00Z'));
    const run = read(p);
    expect(run.gates[0]).toMatchObject({ state: 'granted', grantable: false });
    expect(run.gates[0]?.body).toContain(
      'APPROVED (the file says yes please; the orchestrator acts only on a `STATUS: WORD` line in capitals, or the word alone, and goes on as APPROVED)',
    );
    expect(run.problems.map((x) => [path.basename(x.file ?? ''), x.message])).toEqual([
      ['.last_signal', 'unrecognised signal "whatever happened"'],
      [
        '.resume-signal',
        'the orchestrator acts only on a `STATUS: WORD` line in capitals (or the word alone): "yes please" goes on as APPROVED',
      ],
    ]);
  });
});

describe('readSageRun: bad files', () => {
  it('strips escape sequences from every string it returns', () => {
    const run = read(project('escapes'));
    expectPrintable(run);
    expect(run.name).toBe('EPIC-X');
    expect(run.gates[0]?.title).toBe('Approve  please');
    expect(run.gates[0]?.body).toContain('SAGE_SIGNAL:HITL_REQUIRED:issue:9');
    expect(run.tasks[0]?.id).toBe('x-1#1');
  });

  it('empty, binary and huge state files are problems; the run is unknown', () => {
    const p = bare();
    write(path.join(p.stateDir, 'empty.json'), '', T('2026-05-08T12:00:00Z'));
    write(path.join(p.stateDir, 'bin.json'), Buffer.from([0x7b, 0x00, 0x7d]), T('2026-05-08T12:00:00Z'));
    write(path.join(p.stateDir, 'huge.json'), `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`, T('2026-05-08T12:00:00Z'));
    const run = read(p);
    const byFile = Object.fromEntries(run.problems.map((x) => [path.basename(x.file ?? ''), x.message]));
    expect(byFile).toEqual({
      'bin.json': 'file is binary, expected text',
      'empty.json': 'file is empty',
      'huge.json': expect.stringMatching(/too large/),
    });
    expect(run.status).toBe('unknown');
    expect(run.name).toBe('shop');
  });

  it('a binary .last_signal is a problem; an empty one is no signal', () => {
    const p = project('flat');
    write(path.join(p.stateDir, '.last_signal'), Buffer.from([0x48, 0x00, 0x49]), T('2026-05-08T12:00:00Z'));
    const run = read(p);
    expect(run.problems).toEqual([
      { file: path.join(p.stateDir, '.last_signal'), message: 'file is binary, expected text' },
    ]);
    expect(run.status).toBe('running');
    write(path.join(p.stateDir, '.last_signal'), '', T('2026-05-08T12:00:00Z'));
    expect(read(p)).toMatchObject({ problems: [], gates: [], status: 'running' });
  });

  it('an empty state dir is an idle run without problems; a missing one is a problem', () => {
    const p = bare();
    expect(read(p)).toMatchObject({ status: 'idle', problems: [], gates: [], tasks: [] });
    fs.rmSync(p.stateDir, { recursive: true });
    expect(read(p).problems).toEqual([{ file: p.stateDir, message: 'state directory is missing' }]);
  });
});

describe('SAGE signal parsers', () => {
  it('reads the three printed forms in order, with other output around them', () => {
    const text = [
      'some agent output',
      '⏺ SAGE_SIGNAL:CHECKPOINT:WRITE',
      '',
      '============================================',
      'SAGE_SIGNAL:HITL_REQUIRED',
      'REVIEW_TYPE: architecture',
      'ISSUE_NUMBER: 42',
      'ISSUE_URL: https://github.com/o/r/issues/42',
      '============================================',
      '\u001b[1m═══ SAGE_SIGNAL:CHECKPOINT ═══\u001b[0m',
      'CHECKPOINT_FILE: .sage/state/EPIC-7.json',
      'COMMIT: 9f3c2ab',
      '═══════════════════════════════',
      'not a SAGE_SIGNAL:LINE because of the words before it',
    ].join('\r\n');
    expect(parseSageSignals(text)).toEqual([
      { type: 'CHECKPOINT', payload: 'WRITE', fields: {} },
      {
        type: 'HITL_REQUIRED',
        payload: null,
        fields: { REVIEW_TYPE: 'architecture', ISSUE_NUMBER: '42', ISSUE_URL: 'https://github.com/o/r/issues/42' },
      },
      { type: 'CHECKPOINT', payload: null, fields: { CHECKPOINT_FILE: '.sage/state/EPIC-7.json', COMMIT: '9f3c2ab' } },
    ]);
  });

  it('keeps a box cut off by the end of a capture', () => {
    expect(parseSageSignals('═══ SAGE_SIGNAL:CHECKPOINT ═══\nCOMMIT: abc')).toEqual([
      { type: 'CHECKPOINT', payload: null, fields: { COMMIT: 'abc' } },
    ]);
    expect(parseSageSignals('')).toEqual([]);
  });

  it('parseLastSignal accepts bare, prefixed and printed signals', () => {
    expect(parseLastSignal('HITL_REQUIRED', 'f').value).toEqual({ type: 'HITL_REQUIRED', payload: null, fields: {} });
    expect(parseLastSignal('CHECKPOINT:WRITE\n', 'f').value).toEqual({
      type: 'CHECKPOINT',
      payload: 'WRITE',
      fields: {},
    });
    expect(parseLastSignal('SAGE_SIGNAL:HITL_REQUIRED:issue:7', 'f').value).toEqual({
      type: 'HITL_REQUIRED',
      payload: 'issue:7',
      fields: {},
    });
    expect(parseLastSignal('\n\n', 'f')).toEqual({ value: null, problems: [] });
  });

  it('parseResumeSignal says what the orchestrator will do, and warns only where the file says otherwise', () => {
    // bin/orchestrate-v2.sh (kwg/sage-method 651c8fd): `grep -oP 'STATUS:\s*\K\w+'`, else the first line
    // upper-cased; REVISE, DISCUSS, HALT branch, anything else goes on as approved.
    for (const s of ['APPROVED', 'REVISE', 'DISCUSS', 'HALT']) {
      expect(parseResumeSignal(`STATUS: ${s}\n`, 'f')).toEqual({ value: s, written: null, problems: [] });
      expect(parseResumeSignal(`${s.toLowerCase()}\n`, 'f')).toEqual({ value: s, written: null, problems: [] });
    }
    expect(parseResumeSignal('note\nSTATUS: HALT\n', 'f')).toMatchObject({ value: 'HALT', problems: [] });
    expect(parseResumeSignal('status: halt', 'f')).toMatchObject({ value: 'APPROVED', written: 'status: halt' });
    expect(parseResumeSignal('STATUS: revise', 'f')).toMatchObject({ value: 'APPROVED', written: 'STATUS: revise' });
    expect(parseResumeSignal('STATUS: MAYBE', 'f').problems).toEqual([
      {
        file: 'f',
        message:
          'the orchestrator acts only on a `STATUS: WORD` line in capitals (or the word alone): "STATUS: MAYBE" goes on as APPROVED',
      },
    ]);
    expect(parseResumeSignal('', 'f')).toMatchObject({
      value: 'APPROVED',
      problems: [{ file: 'f', message: expect.stringContaining('an empty file goes on as APPROVED') }],
    });
    // The webhook receiver's form (scripts/webhook-receiver.sh trigger_resume): no STATUS line, so it
    // goes on as approved. Said so only when it asked for something else.
    expect(parseResumeSignal('{"status": "APPROVED", "timestamp": "2026-05-08T12:30:00+00:00"}\n', 'f')).toEqual({
      value: 'APPROVED',
      written: null,
      problems: [],
    });
    expect(parseResumeSignal('{"status": "HALT", "timestamp": "2026-05-08T12:30:00+00:00"}\n', 'f')).toMatchObject({
      value: 'APPROVED',
      written: '{"status": "HALT"}',
    });
    // Said approved in another case: approved it is, no warning.
    expect(parseResumeSignal('STATUS: Approved\n', 'f').problems).toEqual([]);
  });

  it('parseSageState tells shapes apart by keys', () => {
    expect(parseSageState({ next_action: { type: 'hitl' } }, 'f').value?.shape).toBe('nested');
    expect(parseSageState({ epic_id: 'e', story_id: 's' }, 'f').value?.shape).toBe('flat');
    expect(parseSageState({ phase: '00-init', story_queue: [] }, 'f').value?.shape).toBe('run-epic');
    expect(parseSageState([], 'f').problems).toEqual([{ file: 'f', message: 'expected a JSON object' }]);
  });
});
