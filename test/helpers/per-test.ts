/**
 * What a test may start, removed after each test also when it fails: one private tmux server and
 * any number of temp dirs (real paths, as tmux reports a pane's cwd).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { TmuxFixture } from './tmux.js';
import { startTmux } from './tmux.js';

export function perTest(): { tmux(): Promise<TmuxFixture>; dir(prefix?: string): string } {
  let tmux: TmuxFixture | null = null;
  const dirs: string[] = [];
  afterEach(async () => {
    await tmux?.kill();
    tmux = null;
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return {
    tmux: async () => (tmux ??= await startTmux()),
    dir: (prefix = 'tower-test-') => {
      const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
      dirs.push(d);
      return d;
    },
  };
}
