/**
 * Runs the real Gemini CLI (the pinned dev dependency `@google/gemini-cli`, plain Node) in tmux for a
 * test: a private HOME seeded so that nothing stands before the input box (`~/.gemini/settings.json`
 * with the API-key auth chosen, updates, statistics and telemetry off; `trustedFolders.json` trusting
 * the project), `GOOGLE_GEMINI_BASE_URL` and `GEMINI_API_KEY` pointing at the Gemini API stand-in.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { makeCliDirs, privateEnv, startCliPane, writeJson, type CliPane } from '../cli-pane.js';
import { waitFor } from '../wait-for.js';
import { startGeminiApi, type GeminiApi, type GeminiTurn } from './gemini-api.js';

/** The version the tests and fixtures are made against (package.json pins it exactly). */
export const GEMINI_CLI_VERSION = '0.61.0';

const require = createRequire(import.meta.url);

/**
 * The `gemini` command as npm links it (`node_modules/.bin/gemini`, run through its `#!/usr/bin/env
 * node` line): the pane's process is then `node …/bin/gemini`, as after a global install.
 */
export function geminiCommand(): string {
  const pkg = path.dirname(require.resolve('@google/gemini-cli/package.json'));
  return path.join(pkg, '../../.bin/gemini');
}

export interface GeminiRun extends CliPane {
  api: GeminiApi;
  /** `<home>/.gemini`. */
  geminiDir: string;
  settingsPath: string;
  /** Waits for the input box with no dialog over it. */
  ready(timeoutMs?: number): Promise<string>;
}

/** The seeded user settings: API-key auth, nothing that phones home, plus the test's own. */
export function seededSettings(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ui: { hideTips: true },
    ...extra,
  };
}

/** Starts Gemini CLI in a private tmux server with the stand-in as its API. */
export async function startGemini(
  opts: {
    script?: GeminiTurn[];
    settings?: Record<string, unknown>;
    columns?: number;
    rows?: number;
    env?: Record<string, string>;
    setup?: (dirs: { home: string; settingsPath: string; project: string }) => void | Promise<void>;
  } = {},
): Promise<GeminiRun> {
  const dirs = makeCliDirs('gemini');
  const api = await startGeminiApi(opts.script ?? []);
  const geminiDir = path.join(dirs.home, '.gemini');
  const settingsPath = path.join(geminiDir, 'settings.json');
  writeJson(settingsPath, seededSettings(opts.settings));
  writeJson(path.join(geminiDir, 'trustedFolders.json'), { [dirs.project]: 'TRUST_FOLDER' });
  const env = {
    ...privateEnv(dirs),
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    TERM: 'xterm-256color',
    // Without it the CLI draws a warning about colours over its first screen.
    COLORTERM: 'truecolor',
    GOOGLE_GEMINI_BASE_URL: api.url,
    GEMINI_API_KEY: 'standin-key',
    ...opts.env,
  };
  try {
    await opts.setup?.({ home: dirs.home, settingsPath, project: dirs.project });
  } catch (err) {
    await api.close();
    throw err;
  }
  const pane = await startCliPane(dirs, [geminiCommand()], env, {
    ...(opts.columns ? { columns: opts.columns } : {}),
    ...(opts.rows ? { rows: opts.rows } : {}),
    cleanup: () => api.close(),
  });
  return {
    ...pane,
    // Enter only once the text is drawn in the box: an Enter that comes with the text is lost while
    // the CLI is still starting (its SessionStart hooks running).
    // On a loaded box the CLI was seen to drop that Enter too, the line left in the box for good:
    // with no request at the model a while later, Enter again (an empty box ignores it, if the first
    // one was taken after all).
    submit: async (text) => {
      await pane.keys('-l', '--', text);
      await pane.waitForScreen(`> ${text}`, 30_000);
      const before = api.requests.at(-1);
      for (let tries = 0; ; tries++) {
        await pane.keys('Enter');
        try {
          await waitFor(() => api.requests.at(-1) !== before, 15_000, { what: `the model asked after "${text}"` });
          return;
        } catch (err) {
          if (tries === 2) throw err;
        }
      }
    },
    api,
    geminiDir,
    settingsPath,
    ready: (timeoutMs = 60_000) => pane.waitForScreen(/Type your message/, timeoutMs),
  };
}
