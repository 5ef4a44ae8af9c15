/**
 * Where the pinned Claude Code CLI (the dev dependency `@anthropic-ai/claude-code`) keeps its native
 * binary. The wrapper package's postinstall copies the platform package's binary over its own
 * `bin/claude.exe`; the platform package's own copy is taken first, so an install that ran no
 * scripts (`--ignore-scripts`) still works.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The version the tests and fixtures are made against (package.json pins it exactly). */
export const CLAUDE_CODE_VERSION = '2.1.332';

const require = createRequire(import.meta.url);

function platformPackage(): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  if (process.platform !== 'linux') return `@anthropic-ai/claude-code-${process.platform}-${arch}`;
  // glibc reports its version; musl (Alpine) does not.
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  const musl = !report?.header?.glibcVersionRuntime;
  return `@anthropic-ai/claude-code-linux-${arch}${musl ? '-musl' : ''}`;
}

/** The path of the `claude` binary, or throws saying what to install. */
export function claudeBinary(): string {
  const candidates: string[] = [];
  try {
    candidates.push(path.join(path.dirname(require.resolve(`${platformPackage()}/package.json`)), 'claude'));
  } catch {
    // Not installed for this platform: the wrapper's copy below may still be there.
  }
  try {
    candidates.push(
      path.join(path.dirname(require.resolve('@anthropic-ai/claude-code/package.json')), 'bin/claude.exe'),
    );
  } catch {
    // The wrapper is not installed either.
  }
  for (const c of candidates) {
    try {
      // The wrapper's placeholder is a small script; the real binary is hundreds of MB.
      if (fs.statSync(c).size > 1024 * 1024) return c;
    } catch {
      // Missing: try the next.
    }
  }
  throw new Error(`@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} is not installed for this platform: run npm ci`);
}
