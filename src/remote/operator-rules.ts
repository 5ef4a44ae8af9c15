/**
 * This tower's rules file as a box set to `rules: "yours"` is sent it: read with the same trust as
 * here (a file others could write, or a symlink, is refused, and then none is sent: no rules answer
 * there either), sent when the link comes up, and again when the file changes.
 */
import type { RulesSource } from '../rules/load.js';

/** How often the file is looked at for a change (two lstats a look). */
const LOOK_MS = 2000;

/** The operator's rules for one box. */
export class OperatorRules {
  /** Why this tower's own file answers nothing (refused, not valid), or null. */
  problem: string | null = null;
  private sent: string | null | undefined;
  private timer: NodeJS.Timeout | null = null;
  private source: RulesSource | null = null;
  /** Bumped by each start and stop: a look begun before is dropped. */
  private generation = 0;

  constructor(
    private readonly file: string | undefined,
    private readonly write: (text: string | null) => void,
  ) {}

  /** Sends the rules now (the link is up) and whenever they change. */
  start(): void {
    this.stop();
    this.sent = undefined;
    const gen = this.generation;
    void this.look(gen);
    this.timer = setInterval(() => void this.look(gen), LOOK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.generation++;
  }

  private async look(gen: number): Promise<void> {
    // The rules' reader loads only for a host that takes them.
    const { RulesSource } = await import('../rules/load.js');
    if (gen !== this.generation) return;
    if (!this.file) return this.send(null);
    this.source ??= new RulesSource(this.file);
    const loaded = this.source.current();
    this.problem = loaded.problem;
    this.send(loaded.problem ? null : (loaded.text ?? null));
  }

  private send(text: string | null): void {
    if (text === this.sent) return;
    this.sent = text;
    this.write(text);
  }
}
