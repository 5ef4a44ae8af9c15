/** What the control room reads at start, counted cheaply (one readdir), for the runs list while it reads. */
import fs from 'node:fs';
import path from 'node:path';
import { thousands } from '../text/count.js';

/** `10,000 Claude teams, 3 roots`: the team folders under the Claude dir and the roots given. */
export function readingNote(claudeDir: string, roots: readonly string[]): string {
  let teams = 0;
  try {
    teams = fs
      .readdirSync(path.join(claudeDir, 'teams'), { withFileTypes: true })
      .filter((e) => e.isDirectory()).length;
  } catch {
    // No teams folder: nothing to count.
  }
  const parts = [`${thousands(teams)} Claude team${teams === 1 ? '' : 's'}`];
  if (roots.length > 0) parts.push(`${roots.length} root${roots.length === 1 ? '' : 's'}`);
  return parts.join(', ');
}
