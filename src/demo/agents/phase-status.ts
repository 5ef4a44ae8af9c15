/**
 * What a tina team lead keeps in `phase-N/status.json` and the supervisor state: the heartbeat of
 * an executing phase, and the escalation when the phase blocks.
 */
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The phase files of one lead. */
export class PhaseStatus {
  private warned = false;

  constructor(
    private readonly rt: AgentRuntime,
    private readonly stateDir: string,
    private readonly phase: string,
  ) {}

  get statusFile(): string {
    return path.join(this.stateDir, `phase-${this.phase}`, 'status.json');
  }

  get supervisorFile(): string {
    return path.join(this.stateDir, 'supervisor-state.json');
  }

  /** The phase's status word, or null when the file can't be read. */
  status(): string | null {
    const s = this.rt.readObject(this.statusFile)?.status;
    return typeof s === 'string' ? s : null;
  }

  /** Refreshes heartbeat_at while the phase executes; a file it can't read is left alone. */
  heartbeat(): void {
    const current = this.rt.readObject(this.statusFile);
    if (!current) {
      if (!this.warned)
        this.rt.print(style.amber(`phase-${this.phase}/status.json is missing or unreadable; heartbeat paused`));
      this.warned = true;
      return;
    }
    this.warned = false;
    if (current.status !== 'executing') return;
    this.rt.writeJson(this.statusFile, { ...current, heartbeat_at: isoSeconds(Date.now()) });
  }

  /** Escalates: the phase and the orchestration become blocked, with the reason. */
  async block(reason: string, context: Record<string, unknown>): Promise<void> {
    const now = isoSeconds(Date.now());
    const current = this.rt.readObject(this.statusFile) ?? {};
    const { heartbeat_at: _beat, ...rest } = current;
    this.rt.writeJson(this.statusFile, { ...rest, status: 'blocked', blocked_at: now, reason, context });
    await this.rt.withLock(this.supervisorFile, () => {
      const sup = this.rt.readObject(this.supervisorFile);
      if (!sup) return;
      const phases = asObject(sup.phases);
      const ph = asObject(phases[this.phase]);
      this.rt.writeJson(this.supervisorFile, {
        ...sup,
        status: 'blocked',
        phases: { ...phases, [this.phase]: { ...ph, status: 'blocked', blocked_reason: reason } },
      });
    });
    this.rt.print(style.red(`PHASE BLOCKED: ${reason}`));
  }

  /** The review verdicts of this phase from the supervisor state ({} when unreadable). */
  verdicts(): Record<string, Record<string, unknown>> {
    const ph = asObject(asObject(this.rt.readObject(this.supervisorFile)?.phases)[this.phase]);
    const out: Record<string, Record<string, unknown>> = {};
    for (const [id, v] of Object.entries(asObject(ph.review_verdicts))) out[id] = asObject(v);
    return out;
  }
}
