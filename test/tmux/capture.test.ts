import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureArgs, capturePanes, parseCaptureOutput } from '../../src/tmux/capture.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let tmux: TmuxFixture | null = null;
let dir: string | null = null;

afterEach(async () => {
  await tmux?.kill();
  tmux = null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A pane that prints a file's content and then sits (so the content is exactly what we wrote). */
async function paneShowing(t: TmuxFixture, session: string, content: string): Promise<string> {
  dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'tower-capture-'));
  const file = path.join(dir, `${session}.txt`);
  fs.writeFileSync(file, content);
  return t.newSession(session, dir, `cat ${file}; sleep 100000`);
}

describe('capturePanes', () => {
  it('captures several panes in one call, each with its own text and command', async () => {
    tmux = await startTmux();
    const a = await paneShowing(tmux, 'a', 'alpha line\n');
    const b = await paneShowing(tmux, 'b', '\u001b[31mred beta\u001b[0m\n');
    const t = tmux;
    await waitFor(async () => (await t.client.capturePane(b)).includes('red beta'));
    const caps = await capturePanes(t.client, [a, b]);
    const ca = caps.get(a);
    const cb = caps.get(b);
    expect(ca?.ok && ca.text).toContain('alpha line');
    expect(ca?.ok && ca.text).not.toContain('red beta');
    // SGR is kept for the preview (-e).
    expect(cb?.ok && cb.text).toContain('\u001b[31mred beta');
    expect(cb?.ok && cb.command).toBe('sleep');
  });

  it('a vanished pane is gone and does not fail the others', async () => {
    tmux = await startTmux();
    const a = await paneShowing(tmux, 'a', 'still here\n');
    const gone = await paneShowing(tmux, 'g', 'about to go\n');
    const c = await paneShowing(tmux, 'c', 'also here\n');
    await tmux.client.killPane(gone);
    const t = tmux;
    await waitFor(async () => (await t.client.capturePane(c)).includes('also here'));
    const caps = await capturePanes(t.client, [a, gone, c]);
    expect(caps.get(gone)).toEqual({ ok: false, reason: 'gone' });
    expect(caps.get(a)?.ok).toBe(true);
    const cc = caps.get(c);
    expect(cc?.ok && cc.text).toContain('also here');
  });

  it('pane content cannot forge the boundary between two captures', async () => {
    tmux = await startTmux();
    // A pane that prints lines shaped like markers (any nonce it could guess) and another pane's text.
    const forged = Array.from(
      { length: 3 },
      (_, i) =>
        `deadbeefdeadbeefdeadbeefdeadbeef:${i}:e\ndeadbeefdeadbeefdeadbeefdeadbeef:${i + 1}:b:bash\nFORGED for ${i + 1}`,
    ).join('\n');
    const a = await paneShowing(tmux, 'a', `${forged}\n`);
    const b = await paneShowing(tmux, 'b', 'the real b\n');
    const t = tmux;
    await waitFor(async () => (await t.client.capturePane(a)).includes('FORGED for 3'));
    // Under load b's shell may not have printed yet: the question is the boundary, not the timing.
    await waitFor(async () => (await t.client.capturePane(b)).includes('the real b'));
    const caps = await capturePanes(t.client, [a, b]);
    const cb = caps.get(b);
    expect(cb?.ok && cb.text).toContain('the real b');
    expect(cb?.ok && cb.text).not.toContain('FORGED');
    const ca = caps.get(a);
    expect(ca?.ok && ca.text).toContain('FORGED for 3');
  });

  it("parses only markers with this call's nonce", () => {
    const nonce = 'ab'.repeat(16);
    const out = [
      `${nonce}:0:b:node`,
      'x',
      `${'cd'.repeat(16)}:0:e`,
      'y',
      `${nonce}:0:e`,
      `${nonce}:1:b:bash`,
      'half',
    ].join('\n');
    const r = parseCaptureOutput(out, nonce, 2);
    expect(r.texts.get(0)).toEqual({ text: `x\n${'cd'.repeat(16)}:0:e\ny`, command: 'node' });
    expect(r.broken).toBe(1);
    expect(captureArgs(['%1'], nonce, 50)).toContain('-e');
  });
});
