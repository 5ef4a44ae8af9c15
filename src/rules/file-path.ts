/** Where the rules file is, without loading the rules' matching (a start path may need only this). */
import os from 'node:os';
import path from 'node:path';

/** The rules file: the config's `rulesFile` (relative to the config's folder), else rules.json beside the config. */
export function rulesFilePath(configFile: string, rulesFile: string | undefined): string {
  const dir = path.dirname(configFile);
  if (!rulesFile) return path.join(dir, 'rules.json');
  if (rulesFile === '~' || rulesFile.startsWith('~/')) return path.join(os.homedir(), rulesFile.slice(1));
  return path.resolve(dir, rulesFile);
}
