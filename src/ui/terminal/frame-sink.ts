/**
 * ink's stdout: it has the real terminal's size and resize events, and hands each frame the screen
 * writes to it to the painter. It says it is not a TTY so ink adds no cursor codes of its own.
 */
import { EventEmitter } from 'node:events';
import type { ScreenPainter } from './screen-painter.js';

export class FrameSink extends EventEmitter {
  readonly isTTY = false;

  constructor(
    private readonly real: NodeJS.WriteStream,
    private readonly painter: ScreenPainter,
  ) {
    super();
    real.on('resize', this.onResize);
  }

  get columns(): number {
    return this.real.columns || 80;
  }

  get rows(): number {
    return this.real.rows || 24;
  }

  /** One frame from ink. */
  write(chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean {
    this.painter.frame(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (typeof cb === 'function') (cb as () => void)();
    return true;
  }

  /** Stops following the real terminal. */
  dispose(): void {
    this.real.off('resize', this.onResize);
  }

  private readonly onResize = (): void => {
    this.painter.resized();
    this.emit('resize');
  };
}
