/**
 * Claude Code as an agent CLI: how its pane is told and where its state comes from. Its reading and
 * typing (ways.ts) load only once a pane runs it.
 */
import { AGENT_BADGES } from '../../model/values.js';
import { optionFor } from '../../store/prompt-reading.js';
import type { AgentCli } from '../types.js';
import { claudeCodeKeys } from './keys.js';

/** The native binary's name (`bin/claude.exe` of @anthropic-ai/claude-code, run as `claude`). */
const BINARY = /(^|\/)claude(\.exe)?$/;

export const claudeCode: AgentCli = {
  id: 'claude-code',
  label: 'Claude Code',
  badge: AGENT_BADGES['claude-code'],
  tested: { pkg: '@anthropic-ai/claude-code', version: '2.1.332' },
  listsItself: true,
  recognise: {
    commands: ['claude', 'claude.exe'],
    argv: (argv) => BINARY.test(argv[0] ?? ''),
  },
  sources: [
    {
      source: 'session',
      what: 'its session file, <claude>/sessions/<pid>.json (status idle, busy, waiting)',
      needsSetup: false,
    },
    { source: 'hooks', what: "tower's hooks (tower hooks install), by session and pane", needsSetup: true },
    { source: 'screen', what: 'the pane: the interrupt hint, the permission dialog, the input box', needsSetup: false },
  ],
  // A system's own cycle commands are Claude Code's (config `commands`): these are what it has itself.
  cycle: { clear: { command: '/clear' }, compact: { command: '/compact' }, systemCommands: true },
  option: optionFor,
  keys: claudeCodeKeys,
  answerKeys: [...['1', '2', '3', '4', '5', '6', '7', '8', '9'], 'y', 'n'],
  load: async () => (await import('./ways.js')).claudeCodeWays,
};
