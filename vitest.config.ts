import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    // A per-run parent for temp files and a run id for tmux sockets; fails the run on leftovers.
    globalSetup: ['test/helpers/hygiene-setup.ts'],
    // Temp dirs and tmux servers made through the helpers are removed after each file, even on failure.
    setupFiles: ['test/helpers/file-cleanup.ts'],
    hookTimeout: 30_000,
    // tmux and file-watching tests compete for two cores; keep concurrency modest.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain closing line of counts.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
