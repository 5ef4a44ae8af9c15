/**
 * Gemini CLI (npm `@google/gemini-cli`) as an agent CLI. It is Node: the pane's process is
 * `node …/bin/gemini` (tmux says `node`), which relaunches itself as a child that draws and runs the
 * tools. Its state comes from tower's hooks in its settings once installed, else from the screen.
 */
import { AGENT_BADGES } from '../../model/values.js';
import type { AgentCli } from '../types.js';
import { geminiKeys } from './keys.js';
import { stateOfGeminiEvent } from './hooks.js';
import { optionFor } from './answers.js';

/** The script as npm links it (`bin/gemini`) or as the package ships it (`bundle/gemini.js`). */
const SCRIPT = /(^|\/)(gemini|gemini\.js)$/;
const NODE = /(^|\/)node(js)?$/;

export const geminiCli: AgentCli = {
  id: 'gemini-cli',
  label: 'Gemini CLI',
  badge: AGENT_BADGES['gemini-cli'],
  tested: { pkg: '@google/gemini-cli', version: '0.61.0' },
  recognise: {
    commands: ['gemini'],
    // `node [--options] …/gemini`: the first argument that is not an option is the script.
    argv: (argv) => NODE.test(argv[0] ?? '') && SCRIPT.test(argv.slice(1).find((a) => !a.startsWith('-')) ?? ''),
  },
  sources: [
    {
      source: 'hooks',
      what: "tower's hooks in its settings (tower hooks install --settings ~/.gemini/settings.json), by pane",
      needsSetup: true,
    },
    {
      source: 'screen',
      what: 'the pane: `esc to cancel` on its spinner line, the Allow execution dialog, the input box',
      needsSetup: false,
    },
  ],
  hookState: stateOfGeminiEvent,
  cycle: {
    clear: { refusal: 'how Gemini CLI 0.61.0 shows that `/clear` took is not read by tower yet' },
    compact: { refusal: 'how Gemini CLI 0.61.0 shows that `/compress` took is not read by tower yet' },
    systemCommands: false,
  },
  // Its digits; `y` the first option, `n` the one that says No (screen.ts).
  answerKeys: ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'y', 'n'],
  option: optionFor,
  keys: geminiKeys,
  load: async () => (await import('./ways.js')).geminiCliWays,
};
