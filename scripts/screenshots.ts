/**
 * `npm run screenshots`: drives tower in a real tmux on private sockets, captures the screen with
 * its colours and renders each shot to screenshots/<name>.svg and .png.
 *
 *   node --import tsx scripts/screenshots.ts                      the control-room shots of the demo
 *   node --import tsx scripts/screenshots.ts --command CMD --name NAME [--cols N] [--rows N]
 *                                                                 one shot of any command's output
 * Options: --out DIR (default screenshots/), --scale N (PNG density), --timeout S, --wait-for TEXT.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { shootCommand } from './render/command-shot.js';
import { takeDemoShots } from './render/demo-shots.js';
import type { SavedShot } from './render/shot.js';

const USAGE =
  'usage: screenshots.ts [--out DIR] [--scale N] [--command CMD --name NAME [--cols N] [--rows N] [--title T] [--wait-for TEXT] [--timeout S]]';

function positive(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag} must be a positive number, got ${JSON.stringify(value)}`);
  return n;
}

class UsageError extends Error {}

function report(shot: SavedShot): void {
  console.log(
    `wrote ${path.relative(process.cwd(), shot.pngPath)} (${shot.png.width}×${shot.png.height}) and ${path.basename(shot.svgPath)}`,
  );
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string', default: 'screenshots' },
      scale: { type: 'string' },
      command: { type: 'string' },
      name: { type: 'string' },
      cols: { type: 'string' },
      rows: { type: 'string' },
      title: { type: 'string' },
      'wait-for': { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const outDir = path.resolve(values.out);
  const scale = positive(values.scale, 1, '--scale');
  if (values.command === undefined) {
    for (const shot of await takeDemoShots(outDir, { scale, log: (line) => console.log(line) })) report(shot);
    return 0;
  }
  if (!values.name) throw new UsageError('--command needs --name');
  const shot = await shootCommand(outDir, {
    command: values.command,
    name: values.name,
    cols: Math.round(positive(values.cols, 100, '--cols')),
    rows: Math.round(positive(values.rows, 30, '--rows')),
    title: values.title ?? values.command,
    waitFor: values['wait-for'],
    timeoutMs: positive(values.timeout, 20, '--timeout') * 1000,
    scale,
  });
  report(shot);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const usage =
      err instanceof UsageError ||
      (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'));
    console.error(`screenshots: ${err instanceof Error ? err.message : String(err)}`);
    if (usage) console.error(USAGE);
    process.exitCode = usage ? 2 : 1;
  },
);
