/** An AppContext for tests: defaults config, a private tmux socket, output captured in memory. */
import { PassThrough } from 'node:stream';
import type { Config } from '../../src/config/config.js';
import { defaultConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context/context.js';
import { TmuxClient } from '../../src/tmux/client.js';

export interface TestContext extends AppContext {
  /** Everything written to ctx.out / ctx.err so far. */
  stdout(): string;
  stderr(): string;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

/** A context on the given dirs and tmux socket (a name nobody else uses, or one from startTmux()). */
export function testContext(opts: {
  claudeDir: string;
  roots?: string[];
  socketName: string;
  config?: Partial<Config>;
  home?: string;
}): TestContext {
  const out = capture();
  const err = capture();
  return {
    config: { ...defaultConfig(), ...opts.config },
    configFile: null,
    claudeDir: opts.claudeDir,
    roots: opts.roots ?? [],
    discover: true,
    tmux: new TmuxClient({ name: opts.socketName }, 5000),
    hosts: [],
    local: true,
    color: false,
    readonly: false,
    dryRun: false,
    env: { ...process.env, HOME: opts.home ?? process.env.HOME },
    out: out.stream,
    err: err.stream,
    stdout: out.text,
    stderr: err.text,
  };
}
