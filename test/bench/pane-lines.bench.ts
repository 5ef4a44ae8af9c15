/**
 * What `tower serve` spends making a streamed pane's capture into the lines it sends (printed, never
 * asserted): 220 lines with colour escapes, scrolled by a line from one capture to the next, cleaned
 * each time whole, against cleaned once per line met (the last capture's lines kept, as the serve
 * does). CPU per capture, over 400 captures.
 *
 *   node --import tsx test/bench/pane-lines.bench.ts
 */
import { paneLines } from '../../src/remote/pane-serve.js';

const CAPTURES = 400;
const capture = (n: number) =>
  Array.from(
    { length: 220 },
    (_, i) => `\u001b[1m✻\u001b[0m line ${i + n} of what the agent prints \u001b[31mred\u001b[0m`,
  ).join('\n');
const texts = Array.from({ length: CAPTURES + 1 }, (_, i) => capture(i));

function perCapture(label: string, make: (text: string) => string[]): void {
  make(texts[0]!);
  const t = process.cpuUsage();
  for (let i = 1; i <= CAPTURES; i++) make(texts[i]!);
  const u = process.cpuUsage(t);
  console.log(`${label.padEnd(36)} ${((u.user + u.system) / CAPTURES).toFixed(0).padStart(5)} µs of CPU a capture`);
}

perCapture('every line cleaned each capture', (text) => paneLines(text));
const cleaned = { last: new Map<string, string>() };
perCapture('a line cleaned once (the serve)', (text) => paneLines(text, cleaned));
