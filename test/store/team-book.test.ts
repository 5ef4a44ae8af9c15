/**
 * The live store's book of Claude teams hands the runs of a read one list of teams, the same array
 * until a team is read again, comes or goes: a tina run re-read for a change of its own state files
 * then finds its teams in the index made of that list before (src/systems/tina/teams.ts), instead
 * of a new list of 10,000 teams to walk or index again. Real team folders in a temp dir.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultReaders } from '../../src/store/readers.js';
import { TeamBook } from '../../src/store/team-book.js';
import { buildTeamsBox, touchTask } from '../helpers/teams-box.js';
import type { TeamsBox } from '../helpers/teams-box.js';

let box: TeamsBox;
let book: TeamBook;
const none = new Set<string>();

beforeEach(() => {
  box = buildTeamsBox({ teams: 3, active: 2 });
  book = new TeamBook(box.claudeDir, defaultReaders, Date.now);
  book.readAll(none);
});

afterEach(() => box.remove());

describe('TeamBook.list', () => {
  it('gives the same list until a team is read again', () => {
    const first = book.list();
    expect(first.map((t) => t.name)).toEqual([...box.active, ...box.ended]);
    expect(book.list()).toBe(first);

    const changed = box.active[0]!;
    touchTask(box, changed, 'Rewrite the changelog');
    book.reread([changed], none);
    const second = book.list();
    expect(second).not.toBe(first);
    expect(second.find((t) => t.name === changed)?.tasks.some((t) => t.subject === 'Rewrite the changelog')).toBe(true);
    expect(book.list()).toBe(second);

    book.readAll(none);
    expect(book.list()).not.toBe(second);
  });

  it('leaves out a team whose folder is gone once it is read again', () => {
    const first = book.list();
    const gone = box.ended[0]!;
    fs.rmSync(path.join(box.claudeDir, 'teams', gone), { recursive: true });
    book.reread([gone], none);
    expect(book.list()).not.toBe(first);
    expect(book.list().map((t) => t.name)).not.toContain(gone);
    expect(book.list()).toHaveLength(first.length - 1);
  });
});
