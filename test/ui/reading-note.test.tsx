/** While the first snapshot is read (10,000 teams take a while) the runs list says so, with a count: never "no runs found". */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../src/ui/session-state.js';
import { readingNote } from '../../src/ui/reading-note.js';
import { tempDir } from '../helpers/box.js';
import type { TestScreen } from './helpers.js';
import { renderRoom, waitForText } from './helpers.js';

const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

describe('the first frame of a big box', () => {
  it('says it is reading, with what, until the first snapshot is there', async () => {
    const session = createSessionStore({ loading: true, reading: '10,000 Claude teams, 2 roots' });
    const { screen } = renderRoom({
      columns: 120,
      rows: 30,
      snapshot: { version: 1, generatedAt: '', runs: [], problems: [] },
      props: { session },
    });
    mounted.push(screen);
    await waitForText(screen, 'reading state… (10,000 Claude teams, 2 roots)');
    expect(screen.frame()).not.toContain('no runs found');
    session.set({ loading: false, reading: '' });
    await waitForText(screen, 'no runs found');
    expect(screen.frame()).not.toContain('reading state…');
  });

  it('counts the team folders and roots with one readdir', () => {
    const claude = tempDir('tower-claude-');
    for (let i = 0; i < 1200; i++) fs.mkdirSync(path.join(claude, 'teams', `team-${i}`), { recursive: true });
    fs.writeFileSync(path.join(claude, 'teams', 'stray.json'), '{}');
    expect(readingNote(claude, ['/a', '/b'])).toBe('1,200 Claude teams, 2 roots');
    expect(readingNote(path.join(claude, 'none'), [])).toBe('0 Claude teams');
  });
});
