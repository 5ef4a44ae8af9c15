import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameSink } from '../../src/ui/terminal/frame-sink.js';
import { holdConsole, installLifecycle } from '../../src/ui/terminal/lifecycle.js';
import { RESIZE_SETTLE_MS, ScreenPainter, paintDiff } from '../../src/ui/terminal/screen-painter.js';
import { Terminal } from '../../src/ui/terminal/terminal.js';

/** A terminal that records what is written to it. */
class Tty extends EventEmitter {
  written: string[] = [];
  isTTY = true;
  rawMode: boolean[] = [];
  constructor(
    public columns = 20,
    public rows = 4,
  ) {
    super();
  }
  write = (d: string) => {
    this.written.push(d);
    return true;
  };
  setRawMode = (on: boolean) => {
    this.rawMode.push(on);
    return this;
  };
}

afterEach(() => vi.useRealTimers());

describe('paintDiff', () => {
  it('paints every row of an unknown screen, each at its own position, in one synchronized update', () => {
    const out = paintDiff(null, ['one', 'two'], 20, 4);
    expect(out.startsWith('\u001b[?2026h')).toBe(true);
    expect(out.endsWith('\u001b[?2026l')).toBe(true);
    expect(out).toContain('\u001b[1;1Hone');
    expect(out).toContain('\u001b[2;1Htwo');
    // Rows 3 and 4 are cleared: nothing of an old screen survives.
    expect(out).toContain('\u001b[3;1H\u001b[2K');
    expect(out).toContain('\u001b[4;1H\u001b[2K');
  });

  it('rewrites only the lines that changed', () => {
    const out = paintDiff(['a', 'b', 'c'], ['a', 'B', 'c'], 20, 4);
    expect(out).toContain('\u001b[2;1HB');
    expect(out).not.toContain('\u001b[1;1H');
    expect(out).not.toContain('\u001b[3;1H');
    expect(paintDiff(['a'], ['a'], 20, 4)).toBe('');
  });

  it('never erases the last cell of a full-width line, and never writes below the last row', () => {
    const full = paintDiff(null, ['x'.repeat(20)], 20, 2);
    expect(full).toContain(`\u001b[1;1H${'x'.repeat(20)}\u001b[0m\u001b[2;1H`);
    expect(paintDiff(null, ['1', '2', '3', '4', '5'], 20, 3)).not.toContain('\u001b[4;1H');
  });
});

describe('ScreenPainter', () => {
  it('paints at most once per frame, always the newest frame', () => {
    vi.useFakeTimers();
    const tty = new Tty();
    const painter = new ScreenPainter(tty, 16);
    painter.frame('first');
    expect(tty.written).toHaveLength(1);
    painter.frame('second');
    painter.frame('third');
    expect(tty.written).toHaveLength(1);
    vi.advanceTimersByTime(16);
    expect(tty.written).toHaveLength(2);
    expect(tty.written[1]).toContain('third');
    expect(tty.written[1]).not.toContain('second');
  });

  it('holds frames while suspended and repaints in full on resume', () => {
    const tty = new Tty();
    const painter = new ScreenPainter(tty, 0);
    painter.frame('a\nb');
    painter.suspend();
    painter.frame('a\nc');
    expect(tty.written).toHaveLength(1);
    painter.resume();
    expect(tty.written).toHaveLength(2);
    expect(tty.written[1]).toContain('\u001b[1;1Ha');
    expect(tty.written[1]).toContain('\u001b[2;1Hc');
  });
});

describe('FrameSink', () => {
  it('has the terminal size, tells ink on resize, and paints only the re-laid-out frame', () => {
    vi.useFakeTimers();
    const tty = new Tty(100, 30);
    const painter = new ScreenPainter(tty, 0);
    const sink = new FrameSink(tty as unknown as NodeJS.WriteStream, painter);
    expect([sink.columns, sink.rows, sink.isTTY]).toEqual([100, 30, false]);
    sink.write('x');
    let resized = 0;
    sink.on('resize', () => resized++);
    tty.columns = 80;
    const writes = tty.written.length;
    tty.emit('resize');
    expect(resized).toBe(1);
    expect(sink.columns).toBe(80);
    // ink first renders the old layout at the new width, then the app lays out again.
    sink.write('old layout');
    sink.write('new layout');
    expect(tty.written).toHaveLength(writes);
    vi.advanceTimersByTime(RESIZE_SETTLE_MS);
    expect(tty.written).toHaveLength(writes + 1);
    expect(tty.written.at(-1)).toContain('\u001b[1;1Hnew layout');
    expect(tty.written.at(-1)).not.toContain('old layout');
    sink.dispose();
    tty.emit('resize');
    expect(resized).toBe(1);
  });
});

describe('Terminal', () => {
  it('enters the alternate screen once and restores it once, however often it is asked', () => {
    const out = new Tty();
    const input = new Tty();
    const t = new Terminal(out as unknown as NodeJS.WriteStream, input as unknown as NodeJS.ReadStream);
    t.enter();
    t.enter();
    t.restore();
    t.restore();
    const all = out.written.join('');
    expect(all.match(/\u001b\[\?1049h/g)).toHaveLength(1);
    expect(all.match(/\u001b\[\?1049l/g)).toHaveLength(1);
    expect(all).toContain('\u001b[?25l');
    expect(all.indexOf('\u001b[?25h')).toBeGreaterThan(all.indexOf('\u001b[?25l'));
    expect(input.rawMode).toContain(false);
  });
});

describe('lifecycle', () => {
  it('routes signals and crashes to the hooks until uninstalled', () => {
    const proc = new EventEmitter() as unknown as NodeJS.Process;
    const seen: string[] = [];
    const uninstall = installLifecycle(
      { onSignal: (s) => seen.push(s), onCrash: (e) => seen.push(`crash ${(e as Error).message}`) },
      proc,
    );
    proc.emit('SIGTERM', 'SIGTERM');
    proc.emit('SIGHUP', 'SIGHUP');
    proc.emit('uncaughtException', new Error('boom'));
    uninstall();
    proc.emit('SIGTERM', 'SIGTERM');
    expect(seen).toEqual(['SIGTERM', 'SIGHUP', 'crash boom']);
    expect((proc as unknown as EventEmitter).listenerCount('SIGTERM')).toBe(0);
  });

  it('holds console output while the screen is up and prints it after', () => {
    const held = holdConsole();
    console.log('from a library', { a: 1 });
    const out: string[] = [];
    held.release((t) => out.push(t));
    held.release((t) => out.push(t));
    expect(out).toEqual(['from a library {"a":1}\n']);
  });
});
