import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // tmux and file-watching tests compete for two cores; keep concurrency modest.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain closing line of counts.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
