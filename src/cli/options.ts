/** The options of tower's command line that every command takes. */
import type { OptionSpec } from './args.js';

/** Every command takes these, before or after its name (the far side of a host too: remote/reader-main.ts). */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '--root <dir>', description: 'a project root to watch (repeatable)', repeatable: true },
  { flags: '--claude-dir <dir>', description: 'the Claude Code config dir (default $CLAUDE_CONFIG_DIR or ~/.claude)' },
  { flags: '-L, --socket-name <name>', description: 'tmux socket name' },
  { flags: '-S, --socket-path <path>', description: 'tmux socket path' },
  { flags: '--config <file>', description: 'config file (default ~/.config/tower/config.json)' },
  { flags: '--no-color', description: 'no colour (NO_COLOR is honoured too)' },
  { flags: '--readonly', description: 'refuse every action' },
  {
    flags: '--host <name|dest>',
    description: 'another build box to show, reached over ssh (repeatable)',
    repeatable: true,
  },
  { flags: '--no-local', description: "leave this box's own runs out (only the hosts)" },
  {
    flags: '--demo',
    description:
      'point at the running demo: its runs, its tmux socket, its own audit log (-L NAME picks one when more run)',
  },
];
