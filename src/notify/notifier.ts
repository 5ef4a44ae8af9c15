/**
 * Tells the operator when something newly needs them, on every channel the config turns on: the
 * bell, a desktop notification, the terminal title (a count, always kept current) and the notify
 * command. The first snapshot is the baseline: what it shows is not news.
 */
import { bellBytes, desktopBytes, needYouTitle, titleBytes } from './bytes.js';
import { runNotifyCommand } from './command.js';
import type { CommandOutcome } from './command.js';
import type { NotifyConfig } from '../config/notify.js';
import { countNeedingYou } from '../store/needs-you.js';
import type { Notice } from './notices.js';
import { NoticeLog } from './notices.js';
import type { Snapshot } from '../model.js';

export interface NotifierDeps {
  config: NotifyConfig;
  /** Writes to the operator's terminal (null: no terminal, as in `tower watch`). */
  write: ((bytes: string) => void) | null;
  /** Whether tower runs inside tmux (desktop notifications are wrapped for passthrough). */
  inTmux: boolean;
  /** A notify command that failed or timed out: shown, never waited on. */
  warn: (notice: Notice, outcome: Exclude<CommandOutcome, { status: 'done' }>) => void;
  env?: NodeJS.ProcessEnv | undefined;
}

export class Notifier {
  private readonly log = new NoticeLog();
  private started = false;
  private muted = false;
  private title: string | null = null;
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly d: NotifierDeps) {}

  /** Whether bell, desktop and command are off for now (the title still counts). */
  isMuted(): boolean {
    return this.muted;
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
  }

  /** Looks at a snapshot: the first one is the baseline; later ones tell what is new. Returns what was new. */
  observe(snapshot: Snapshot): Notice[] {
    if (!this.started) {
      this.started = true;
      this.log.baseline(snapshot);
      this.updateTitle(snapshot);
      return [];
    }
    const news = this.log.news(snapshot).filter((n) => this.d.config.events.includes(n.event));
    if (news.length > 0 && !this.muted) this.tell(news);
    this.updateTitle(snapshot);
    return news;
  }

  /** Resolves when every notify command started so far has ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private tell(news: readonly Notice[]): void {
    const { config, write } = this.d;
    // One bell for what arrived together; one desktop notification and one command per notice.
    if (write && config.bell) write(bellBytes());
    for (const n of news) {
      if (write && config.desktop) write(desktopBytes(config.desktop, 'tower', n.title, this.d.inTmux));
      if (config.command) this.runCommand(config.command, n);
    }
  }

  private runCommand(command: string, n: Notice): void {
    const p = runNotifyCommand(command, n, this.d.config.timeoutSec * 1000, this.d.env).then((outcome) => {
      if (outcome.status !== 'done') this.d.warn(n, outcome);
    });
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  private updateTitle(snapshot: Snapshot): void {
    if (!this.d.write || !this.d.config.title) return;
    const title = needYouTitle(countNeedingYou(snapshot));
    if (title === this.title) return;
    this.title = title;
    this.d.write(titleBytes(title));
  }
}
