/** Where the built fake-agent script is, seen from the running code. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `dist/demo-agent.js`: next to the running bundle (dist/cli.js or a chunk of dist/), or, when this
 * module runs from source (src/demo/), in the repository's dist/.
 */
export function demoAgentScript(moduleUrl: string = import.meta.url): string {
  const here = path.dirname(fileURLToPath(moduleUrl));
  const beside = path.join(here, 'demo-agent.js');
  if (path.basename(here) === 'dist' || fs.existsSync(beside)) return beside;
  return path.resolve(here, '..', '..', 'dist', 'demo-agent.js');
}

/** The agent script is missing: the repository was not built. */
export class DemoNotBuiltError extends Error {
  override readonly name = 'DemoNotBuiltError';
  constructor(script: string) {
    super(`the demo agents are not built (${script} is missing): run npm run build`);
  }
}
