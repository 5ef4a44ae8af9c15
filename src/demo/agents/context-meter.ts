/**
 * The lead's context gauge, as tina's statusline script keeps it: `context-metrics.json` rewritten
 * as the conversation grows, and `checkpoint-needed` written once the threshold is crossed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

/** tina's default context threshold. */
export const CONTEXT_THRESHOLD_PCT = 70;
const MAX_TOKENS = 200_000;
/** Growth per step, in points: varied so the gauge does not tick like a metronome. */
const GROWTH = [3, 2, 4, 3, 3, 2, 4, 2] as const;
const CEILING_PCT = 93;

/** The context gauge of one lead. */
export class ContextMeter {
  private step = 0;
  /** Whether the signal was raised since the last reset (it is raised once per climb). */
  private signalled = false;

  constructor(
    private readonly rt: AgentRuntime,
    private readonly stateDir: string,
    public pct: number,
  ) {}

  private get signalFile(): string {
    return path.join(this.stateDir, 'checkpoint-needed');
  }

  /** Writes the current figure to context-metrics.json. */
  write(): void {
    this.rt.writeJson(path.join(this.stateDir, 'context-metrics.json'), {
      used_pct: this.pct,
      tokens: Math.round((this.pct / 100) * MAX_TOKENS),
      max: MAX_TOKENS,
      timestamp: isoSeconds(Date.now()),
    });
  }

  /** One step of conversation: the gauge climbs, and the signal fires at the threshold. */
  climb(): void {
    const growth = GROWTH[this.step++ % GROWTH.length] ?? 3;
    this.pct = Math.min(CEILING_PCT, this.pct + growth);
    this.write();
    if (this.pct < CONTEXT_THRESHOLD_PCT || this.signalled) return;
    this.signalled = true;
    // Someone (tower, the supervisor) may have raised it already: one signal is enough.
    if (fs.existsSync(this.signalFile)) return;
    this.rt.writeText(
      this.signalFile,
      `${JSON.stringify({ triggered_at: isoSeconds(Date.now()), context_pct: this.pct, threshold: CONTEXT_THRESHOLD_PCT, source: 'statusline' })}\n`,
    );
    this.rt.print(
      style.amber(`⚠ context ${this.pct}% ≥ ${CONTEXT_THRESHOLD_PCT}%: wrote checkpoint-needed (a checkpoint is due)`),
    );
  }

  /** After a rehydrate: a fresh conversation, and a new climb toward the next signal. */
  reset(pct: number): void {
    this.pct = pct;
    this.signalled = false;
    this.write();
  }
}
