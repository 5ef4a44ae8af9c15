/**
 * Runs the real opencode CLI (the pinned dev dependency `opencode-linux-x64`, the binary npm's `opencode-ai` runs here) in tmux for a test: a private
 * HOME whose `~/.config/opencode/opencode.json` names one custom provider, `@ai-sdk/openai-compatible`
 * (bundled in the binary) pointed at the chat completions stand-in, with a model whose
 * `limit.context` the context gauge divides by; `permission.bash: "ask"` so a shell command waits
 * for the operator; no model list fetched, no update, no sharing. With `port`, the pane's process is
 * `opencode --port N` and its HTTP server listens on 127.0.0.1:N.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { makeCliDirs, privateEnv, startCliPane, writeJson, type CliPane } from '../cli-pane.js';
import { startChatApi, type ChatApi, type ChatTurn } from './chat-api.js';

/** The version the tests and fixtures are made against (package.json pins it exactly). */
export const OPENCODE_VERSION = '1.18.33';
/** The provider and model ids the seeded config names. */
export const PROVIDER_ID = 'standin';
export const MODEL_ID = 'standin-model';
/** The model's context window in the seeded config. */
export const CONTEXT_LIMIT = 100_000;

const require = createRequire(import.meta.url);

/** The path of the `opencode` binary (the platform package's own copy), or throws saying what to install. */
export function opencodeBinary(): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const candidates: string[] = [];
  for (const pkg of [`opencode-${process.platform}-${arch}`, `opencode-${process.platform}-${arch}-baseline`]) {
    try {
      candidates.push(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin/opencode'));
    } catch {
      // Not installed for this platform.
    }
  }
  for (const c of candidates) {
    try {
      if (fs.statSync(c).size > 1024 * 1024) return c;
    } catch {
      // Missing: try the next.
    }
  }
  throw new Error(
    `opencode-linux-x64@${OPENCODE_VERSION} is not installed (opencode's binary for linux x64): run npm ci`,
  );
}

export interface OpencodeRun extends CliPane {
  api: ChatApi;
  /** The server's port when started with one. */
  port: number | null;
  /** `<home>/.local/share/opencode`: where the CLI keeps its sessions. */
  dataDir: string;
  /** Waits for the input box with no dialog over it. */
  ready(timeoutMs?: number): Promise<string>;
}

/** A free port on 127.0.0.1 (taken and given back: a race the tests accept, the CLI binds it at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The seeded opencode.json: the stand-in provider and model, shell commands asked. */
export function seededConfig(baseURL: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: `${PROVIDER_ID}/${MODEL_ID}`,
    small_model: `${PROVIDER_ID}/${MODEL_ID}`,
    permission: { bash: 'ask' },
    provider: {
      [PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Stand-in',
        options: { baseURL, apiKey: 'standin-key' },
        models: { [MODEL_ID]: { name: 'Stand-in model', limit: { context: CONTEXT_LIMIT, output: 8192 } } },
      },
    },
  };
}

/** Starts opencode in a private tmux server with the stand-in as its model; `port` starts its server. */
export async function startOpencode(
  opts: { script?: ChatTurn[]; port?: boolean; columns?: number; rows?: number; env?: Record<string, string> } = {},
): Promise<OpencodeRun> {
  const dirs = makeCliDirs('opencode');
  const api = await startChatApi(opts.script ?? []);
  writeJson(path.join(dirs.home, '.config/opencode/opencode.json'), seededConfig(api.url));
  const port = opts.port ? await freePort() : null;
  const env = {
    ...privateEnv(dirs),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'xterm-256color',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    ...opts.env,
  };
  const args = [opencodeBinary(), ...(port ? ['--port', String(port)] : [])];
  const pane = await startCliPane(dirs, args, env, {
    ...(opts.columns ? { columns: opts.columns } : {}),
    ...(opts.rows ? { rows: opts.rows } : {}),
    cleanup: () => api.close(),
  });
  return {
    ...pane,
    api,
    port,
    dataDir: path.join(dirs.home, '.local/share/opencode'),
    // The input box's footer names the model; a dialog takes its place.
    ready: (timeoutMs = 30_000) => pane.waitForScreen(/Stand-in model/, timeoutMs),
  };
}
