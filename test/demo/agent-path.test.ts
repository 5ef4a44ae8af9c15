/** Finding the built agent from the running code: beside a bundle, or in dist/ from source. */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoAgentScript } from '../../src/demo/agent-path.js';
import { removeTempDirs, tempDir } from './support.js';

afterAll(() => removeTempDirs());

describe('demoAgentScript', () => {
  it('is dist/demo-agent.js beside a bundle in dist/', () => {
    expect(demoAgentScript(pathToFileURL('/repo/dist/chunk-ABC.js').href)).toBe('/repo/dist/demo-agent.js');
  });

  it('is the demo-agent.js beside a bundle built elsewhere', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'demo-agent.js'), '');
    expect(demoAgentScript(pathToFileURL(path.join(dir, 'cli.js')).href)).toBe(path.join(dir, 'demo-agent.js'));
  });

  it('is the repository dist/ when running from src/demo', () => {
    expect(demoAgentScript(pathToFileURL('/repo/src/demo/sandbox.ts').href)).toBe('/repo/dist/demo-agent.js');
  });
});
