/** Runs a built tower launcher as a command line: its exit code and output, never a throw. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The outcome of one command line. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node <bin> ...args` with `env` over this process's environment; resolves when it exits. */
export async function runBuilt(bin: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  try {
    const r = await run(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, timeout: 30_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
