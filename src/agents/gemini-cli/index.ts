/**
 * Gemini CLI (npm `@google/gemini-cli`) as an agent CLI. It is Node: the pane's process is
 * `node …/bin/gemini` (tmux says `node`), which relaunches itself as a child that draws and runs the
 * tools. Its state comes from tower's hooks in its settings once installed, else from the screen.
 */
import { AGENT_BADGES } from '../../model/values.js';
import type { AgentCli } from '../types.js';
import { stateOfGeminiEvent } from './hooks.js';

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
  load: async () => (await import('./ways.js')).geminiCliWays,
};
