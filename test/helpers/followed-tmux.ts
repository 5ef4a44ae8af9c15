/**
 * A private tmux server for each test of a describe block, and the pane follower a test starts on
 * it: the follower stopped and the server killed after each test, also when it fails.
 */
import { afterEach, beforeEach } from 'vitest';
import type { PaneOutputFollower } from '../../src/tmux/pane-output.js';
import type { TmuxFixture } from './tmux.js';
import { startTmux } from './tmux.js';

export interface FollowedTmux {
  tmux: TmuxFixture;
  follower: PaneOutputFollower | null;
}

/** Registers the hooks in the calling describe block; the object holds this test's server and follower. */
export function followedTmux(): FollowedTmux {
  const t = { tmux: null as unknown as TmuxFixture, follower: null } as FollowedTmux;
  beforeEach(async () => {
    t.tmux = await startTmux();
  });
  afterEach(async () => {
    t.follower?.stop();
    t.follower = null;
    await t.tmux.kill();
  });
  return t;
}
