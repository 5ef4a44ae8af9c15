/**
 * The real `tower` launcher over a bundle of the current source, built into a private temp dir laid
 * out like the repo (bin/ next to dist/), with the same esbuild options as `npm run build`. Tests
 * run it instead of the working tree's dist/, which another build may be rewriting at that moment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../scripts/bundle.js';
import { bundleStatusFile } from '../../scripts/status-file.js';
import { removeAfterFile } from './leftovers.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface BuiltCli {
  /** The launcher: `node <bin> status …`. */
  bin: string;
  /** The bundle's folder (cli.js and its chunks). */
  dist: string;
  remove(): void;
}

/** Bundles src/cli.ts (with code splitting, as dist/ is built) and returns the launcher. */
export async function buildCli(): Promise<BuiltCli> {
  const dir = removeAfterFile(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-built-cli-'))));
  const dist = path.join(dir, 'dist');
  await bundle(dist, { cli: 'src/cli/cli.ts' }, { logLevel: 'error' });
  // `tower status` on Node 20 runs from its one file (without kept code here: test/build/status-file.test.ts makes that).
  await bundleStatusFile(dist, { logLevel: 'error' });
  fs.mkdirSync(path.join(dir, 'bin'));
  for (const file of fs.readdirSync(path.join(REPO, 'bin')))
    fs.copyFileSync(path.join(REPO, 'bin', file), path.join(dir, 'bin', file));
  // Packages left out of the bundle still resolve from the repo.
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return {
    bin: path.join(dir, 'bin', 'tower.js'),
    dist,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
