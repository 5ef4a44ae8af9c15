/** Pane command lines: quoted so the shell tmux runs them with gets exactly the agent's argv. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { agentCommand, shellQuote } from '../../src/demo/panes.js';

describe('shellQuote', () => {
  it('round-trips awkward words through sh', () => {
    const words = [
      'plain',
      'with space',
      "it's",
      '$HOME',
      '`id`',
      'a"b',
      'tab\there',
      'line\nbreak',
      '',
      'ü ❯ ·',
      '--flag=%1',
    ];
    const out = execFileSync('sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`]).toString();
    expect(out.split('\0').slice(0, -1)).toEqual(words);
  });
});

describe('agentCommand', () => {
  it('execs node on the agent with the role and its flags', () => {
    const cmd = agentCommand(
      { node: '/usr/bin/node', script: '/repo/dist/demo-agent.js' },
      {
        member: 'team-lead',
        role: 'lead',
        cwd: '/x',
        flags: { sandbox: '/tmp/s b', phase: 2, climb: true, quiet: false, team: undefined },
      },
    );
    expect(cmd).toBe("exec /usr/bin/node /repo/dist/demo-agent.js lead --sandbox '/tmp/s b' --phase 2 --climb");
  });
});
