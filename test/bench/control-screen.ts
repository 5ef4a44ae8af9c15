/**
 * Reading a screen in a benchmark through one tmux control-mode client (a command and its answer on
 * a pipe): a `tmux capture-pane` process per look cost 10-40 ms under load, as much as what is
 * measured, and the looks competed for the CPU with the screens they timed.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** A tmux control-mode client on the `base` session: each capture is one line written and its answer read. */
export class ControlScreen {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly waiting: ((text: string) => void)[] = [];
  private block: string[] | null = null;
  private rest = '';

  constructor(socket: string, session = 'base') {
    this.child = spawn('tmux', ['-L', socket, '-C', 'attach', '-t', session, '-f', 'ignore-size,read-only'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      const lines = (this.rest + chunk).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) this.line(line);
    });
  }

  /** The text of `target`'s pane, as `capture-pane -p` prints it. */
  capture(target: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`capture-pane -p -t ${target}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }

  /** Answers to this client's commands come between `%begin … 1` and `%end … 1` (or `%error`), in order. */
  private line(line: string): void {
    if (this.block === null) {
      if (/^%begin \d+ \d+ 1$/.test(line)) this.block = [];
      return;
    }
    if (/^%(end|error) \d+ \d+ 1$/.test(line)) {
      const text = this.block.join('\n');
      this.block = null;
      this.waiting.shift()?.(text);
      return;
    }
    this.block.push(line);
  }
}
