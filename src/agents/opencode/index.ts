/**
 * opencode (npm `opencode-ai`) as an agent CLI: a native binary, run as `opencode` (the npm wrapper's
 * copy is `opencode.exe`). Its server, where the pane's process was started with `--port N`, is the
 * exact source of its state; the screen otherwise.
 */
import { AGENT_BADGES } from '../../model/values.js';
import type { AgentCli } from '../types.js';
import { opencodeKeys } from './keys.js';
import { optionNamed } from './answers.js';

const BINARY = /(^|\/)opencode(\.exe)?$/;

export const opencode: AgentCli = {
  id: 'opencode',
  label: 'opencode',
  badge: AGENT_BADGES['opencode'],
  tested: { pkg: 'opencode-linux-x64', version: '1.18.33' },
  recognise: {
    commands: ['opencode', 'opencode.exe'],
    argv: (argv) => BINARY.test(argv[0] ?? ''),
  },
  sources: [
    {
      source: 'events',
      what: 'its server (`opencode --port N`): GET /event, GET /permission on 127.0.0.1:N',
      needsSetup: true,
    },
    {
      source: 'screen',
      what: 'the pane: `esc interrupt` under the input box, the Permission required dialog',
      needsSetup: false,
    },
  ],
  cycle: {
    clear: { refusal: 'how opencode 1.18.33 shows that `/new` took is not read by tower yet' },
    compact: { refusal: 'how opencode 1.18.33 shows that `/compact` took is not read by tower yet' },
    systemCommands: false,
  },
  // `1` Allow once, `2` Allow always, `3`/`n` Reject (screen.ts); a question's options by number.
  answerKeys: ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'y', 'n'],
  // Named whole here (the server answers any); by keys only Reject is typed (ways.screen.option).
  option: optionNamed,
  keys: opencodeKeys,
  load: async () => (await import('./ways.js')).opencodeWays,
};
