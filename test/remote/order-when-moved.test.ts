/**
 * Changes without the whole run order: the real `tower serve --stdio` offers it in its hello, sends
 * the order with every change until the other side says `use`, and leaves it out after that while
 * the order stays; the other side rebuilds the same list either way.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { admitLine } from '../../src/remote/door.js';
import { ORDER_WHEN_MOVED, applyChanges, diffSnapshots } from '../../src/remote/protocol.js';
import type { ServerMessage } from '../../src/remote/protocol.js';
import { tempDir } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { makeRemoteBox } from '../helpers/remote-box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let cli: BuiltCli;
let dir: string;

beforeAll(async () => {
  cli = await buildCli();
  dir = tempDir('tower-order-');
}, 60_000);

afterAll(() => {
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('changes without the order', () => {
  const a = emptyRun('harness', 'a', '/a', '/a/.harness');
  const b = emptyRun('harness', 'b', '/b', '/b/.harness');
  const c = emptyRun('sage', 'c', '/c', '/c/.sage/state');
  const prev: Snapshot = { version: 1, generatedAt: 't0', runs: [a, b, c], problems: [] };

  it('leave it out only while it stays, and rebuild the same list with the other runs kept', () => {
    const b2 = { ...b, status: 'waiting' as const };
    const kept = diffSnapshots(prev, { ...prev, generatedAt: 't1', runs: [a, b2, c] }, true);
    expect(kept).not.toHaveProperty('order');
    const next = applyChanges(prev, JSON.parse(JSON.stringify(kept)) as typeof kept);
    expect(next.runs).toEqual([a, b2, c]);
    expect(next.runs[0]).toBe(a);
    // Moved: the order is sent.
    const moved = diffSnapshots(prev, { ...prev, runs: [b2, a, c] }, true);
    expect(moved.order).toEqual(['harness:b', 'harness:a', 'sage:c']);
    // Without the feature, as an older tower expects: always sent.
    expect(diffSnapshots(prev, { ...prev, runs: [a, b2, c] }).order).toEqual(['harness:a', 'harness:b', 'sage:c']);
  });

  it('from a box that removes or adds without naming the order: the rest kept in place, new runs last', () => {
    const x = emptyRun('harness', 'x', '/x', '/x/.harness');
    const odd: Extract<ServerMessage, { type: 'changes' }> = {
      type: 'changes',
      generatedAt: 't2',
      upsert: [x],
      remove: ['harness:b'],
    };
    expect(applyChanges(prev, odd).runs.map((r) => r.id)).toEqual(['harness:a', 'sage:c', 'harness:x']);
    // Through the door: a changes line without order is read, not refused.
    const admitted = admitLine(JSON.stringify({ type: 'changes', generatedAt: 't3', upsert: [], remove: [] }));
    expect(admitted.problems).toEqual([]);
    expect(admitted.message).toMatchObject({ type: 'changes', remove: [] });
    expect(admitted.message).not.toHaveProperty('order');
  });

  it('from the real tower serve: offered in the hello, the order sent until the other side says use', async () => {
    const box = makeRemoteBox(dir, 'o', 'omega', cli.bin, uniqueSocketName().replace(/^tower-test-/, ''));
    const env = {
      ...process.env,
      HOME: path.dirname(box.claudeDir),
      XDG_STATE_HOME: box.xdgState,
      XDG_CONFIG_HOME: path.join(path.dirname(box.claudeDir), 'config'),
      TMUX: '',
    };
    const child = spawn(
      process.execPath,
      [cli.bin, '--root', box.root, '--claude-dir', box.claudeDir, '-L', box.socketName, 'serve', '--stdio'],
      { env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const messages: ServerMessage[] = [];
    let rest = '';
    child.stdout.on('data', (d: Buffer) => {
      const lines = (rest + d.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) {
        const { message } = admitLine(l);
        if (message) messages.push(message);
      }
    });
    child.stderr.resume();
    const changes = () =>
      messages.filter((m): m is Extract<ServerMessage, { type: 'changes' }> => m.type === 'changes');
    try {
      await waitFor(() => messages.some((m) => m.type === 'snapshot'), 20_000, { what: 'the first snapshot' });
      const hello = messages[0];
      expect(hello?.type).toBe('hello');
      expect(hello?.type === 'hello' && hello.features).toContain(ORDER_WHEN_MOVED);

      box.openCheckpoint('first');
      await waitFor(() => changes().length >= 1, 20_000, { what: 'the change for the first checkpoint' });
      expect(changes()[0]?.order).toEqual(['harness:omega']);

      child.stdin.write(`${JSON.stringify({ type: 'use', features: [ORDER_WHEN_MOVED, 'something-newer'] })}\n`);
      // Requests are read in order: once a plan asked after it is answered, the use was read.
      child.stdin.write(
        `${JSON.stringify({ type: 'plan', id: 1, request: { kind: 'grant', run: 'harness:omega', gate: 'deploy' }, dryRun: true })}\n`,
      );
      await waitFor(() => messages.some((m) => m.type === 'plan' && m.id === 1), 20_000, {
        what: 'the plan asked after use',
      });
      const seen = changes().length;
      box.openCheckpoint('second');
      await waitFor(() => changes().length > seen, 20_000, { what: 'the change for the second checkpoint' });
      const last = changes()[changes().length - 1]!;
      expect(last).not.toHaveProperty('order');
      expect(last.upsert.map((r) => r.id)).toEqual(['harness:omega']);
      expect(last.upsert[0]?.gates.map((g) => g.id)).toContain('second');
      expect(messages.some((m) => m.type === 'error')).toBe(false);
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 60_000);
});
