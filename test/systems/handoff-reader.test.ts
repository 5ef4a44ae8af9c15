/**
 * tower's own Markdown reader against the parser handoffs were read with before (micromark with
 * GitHub's extensions, test/helpers/micromark-handoff.ts): every handoff fixture and a generated
 * corpus of the shapes tina writes read to the same mdast tree and the same parsed handoff.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { parseMarkdown } from '../../src/systems/tina/markdown.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { generatedHandoff } from '../helpers/handoff-corpus.js';
import { bareTree, micromarkHandoff, micromarkParse } from '../helpers/micromark-handoff.js';

/** test/fixtures/**\/handoff*.md, as paths under test/fixtures. */
function handoffFixtures(dir = FIXTURES): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return handoffFixtures(full);
    return /^handoff.*\.md$/.test(e.name) ? [path.relative(FIXTURES, full)] : [];
  });
}

function expectSameReading(text: string, label: string): void {
  expect(bareTree(parseMarkdown(text)), `${label}: mdast tree`).toEqual(bareTree(micromarkParse(text)));
  expect(parseHandoff(text, '/h.md'), `${label}: parsed handoff`).toEqual(micromarkHandoff(text, '/h.md'));
}

describe('the handoff reader reads as micromark did', () => {
  const fixtures = handoffFixtures();

  it('finds the handoff fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(8);
  });

  it('on every handoff fixture, as written and with CRLF line endings', () => {
    for (const rel of fixtures) {
      const text = fs.readFileSync(path.join(FIXTURES, rel), 'utf8');
      expectSameReading(text, rel);
      expectSameReading(text.replace(/\n/g, '\r\n'), `${rel} (CRLF)`);
    }
  });

  it('on 400 generated handoffs of the three shapes with their variations', () => {
    for (let seed = 1; seed <= 400; seed++) expectSameReading(generatedHandoff(seed), `generated handoff ${seed}`);
  });
});
