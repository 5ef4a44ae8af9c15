/**
 * Codex CLI as an agent CLI: how its pane is told and where its state comes from. Its reading and
 * typing (ways.ts) load only once a pane runs it. docs/agents.md says what 0.169.0 was seen to do.
 */
import { AGENT_BADGES } from '../../model/values.js';
import type { AgentCli } from '../types.js';
import { codexKeys } from './keys.js';
import { isCodexArgv } from './recognise.js';
import { codexOption } from './answers.js';

export const codex: AgentCli = {
  id: 'codex',
  label: 'Codex',
  badge: AGENT_BADGES['codex'],
  tested: { pkg: '@openai/codex', version: '0.169.0' },
  recognise: {
    commands: ['codex'],
    argv: isCodexArgv,
  },
  sources: [
    {
      source: 'app-server',
      what:
        '`thread/list` on the app server every Codex on a CODEX_HOME shares (status idle, active, ' +
        '`waitingOnApproval`)',
      needsSetup: false,
    },
    {
      source: 'rollout',
      what:
        'its rollout, `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-…-<thread>.jsonl` (turns started, ' +
        'ended, aborted; token counts)',
      needsSetup: false,
    },
    {
      source: 'screen',
      what: 'the pane: `Working (Ns • esc to interrupt)`, the approval dialog, the input box',
      needsSetup: false,
    },
  ],
  cycle: {
    // `/new` starts another thread in the same pane, as `/clear` does in Claude Code; `/compact` has
    // the model write a handoff summary the thread goes on from. A system's slash command is
    // "Unrecognized command" to it.
    clear: { command: '/new' },
    compact: { command: '/compact' },
    systemCommands: false,
  },
  // Its dialog's own keys: `1`/`y` Yes, `2`/`p` Yes and don't ask again, `3`/`n`/`esc` No.
  answerKeys: ['1', '2', '3', 'y', 'p', 'n', 'esc'],
  option: codexOption,
  keys: codexKeys,
  load: async () => (await import('./ways.js')).codexWays,
};
