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
import type { Snapshot } from '../model/model.js';

/** More notices than this at once are told as one notice that sums them up. */
export const BURST = 3;
/** Notify commands running at once; the next ones wait, at most MAX_WAITING of them. */
export const MAX_COMMANDS = 4;
export const MAX_WAITING = 16;

/** One notice standing for several that arrived together (or waited too long for a command slot). */
export function summaryNotice(notices: readonly Notice[], total = notices.length): Notice {
  const first = notices[0]!;
  const events = new Set(notices.map((n) => n.event));
  const hosts = new Set(notices.map((n) => n.host));
  const host = hosts.size === 1 ? first.host : null;
  const where = host ? ` on ${host}` : '';
  const what = events.size === 1 ? first.event : 'notices';
  return {
    event: first.event,
    run: notices.every((n) => n.run === first.run) ? first.run : '',
    gate: null,
    title: `${total} ${what}${where}: ${first.title}, and ${total - 1} more`,
    host,
    key: `summary|${first.key}|${total}`,
  };
}

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
  /** Notices waiting for a command slot, and how many more were folded away. */
  private readonly waiting: Notice[] = [];
  private overflow: Notice[] = [];
  private overflowCount = 0;

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
    // One bell for what arrived together; a notification and a command per notice, or one for a burst.
    const told = news.length > BURST ? [summaryNotice(news)] : news;
    if (write && config.bell) write(bellBytes());
    for (const n of told) {
      if (write && config.desktop) write(desktopBytes(config.desktop, 'tower', n.title, this.d.inTmux));
      if (config.command) this.queueCommand(n);
    }
  }

  /** Runs the command for a notice when a slot is free; past the waiting bound, notices are summed up. */
  private queueCommand(n: Notice): void {
    if (this.running.size < MAX_COMMANDS) return this.runCommand(n);
    if (this.waiting.length < MAX_WAITING) this.waiting.push(n);
    else {
      // Only a few are kept to describe the sum; the count says how many there were.
      if (this.overflow.length < BURST) this.overflow.push(n);
      this.overflowCount++;
    }
  }

  private runCommand(n: Notice): void {
    const command = this.d.config.command;
    if (!command) return;
    const p = runNotifyCommand(command, n, this.d.config.timeoutSec * 1000, this.d.env).then((outcome) => {
      if (outcome.status !== 'done') this.d.warn(n, outcome);
    });
    this.running.add(p);
    void p.finally(() => {
      this.running.delete(p);
      let next = this.waiting.shift();
      if (!next && this.overflow.length) {
        next = summaryNotice(this.overflow.splice(0), this.overflowCount);
        this.overflowCount = 0;
      }
      if (next) this.runCommand(next);
    });
  }

  private updateTitle(snapshot: Snapshot): void {
    if (!this.d.write || !this.d.config.title) return;
    const title = needYouTitle(countNeedingYou(snapshot));
    if (title === this.title) return;
    this.title = title;
    this.d.write(titleBytes(title));
  }
}
