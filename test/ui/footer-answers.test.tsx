/**
 * The footer on a member at Claude Code 2.1.332's Bash dialog (read from its captured screen): at
 * every width it offers the answers for what is selected, `n` (the option that says No) included,
 * beside the team's other keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import { readPrompt } from '../../src/store/prompt-reading.js';
import { readFixture } from '../helpers/fixtures.js';
import { fixtureSnapshot, member } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { renderRoom, waitFor } from './helpers.js';

const mounted: TestScreen[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

/** A Claude team whose lead shows the Bash dialog, with two live teammates (terminate applies too). */
function askingTeam() {
  const prompt = readPrompt(readFixture('claude-code-2.1.332/screens/bash-prompt.200x50.txt'))!;
  const run = { ...emptyRun('claude-team', 'docs-refresh', '/work/docs', null), status: 'waiting' as const };
  run.members = [
    member('team-lead', {
      lead: true,
      paneId: '%1',
      state: 'alive',
      activity: 'waiting',
      activityCue: 'question',
      prompt,
    }),
    member('writer-1', { paneId: '%2', state: 'alive', activity: 'idle' }),
    member('writer-2', { paneId: '%3', state: 'alive', activity: 'working' }),
  ];
  return run;
}

describe('the footer on a member at a prompt', () => {
  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
    [200, 50],
  ] as const) {
    it(`at ${columns}×${rows} offers every answer, n answer No included`, async () => {
      const r = renderRoom({ columns, rows, snapshot: fixtureSnapshot([askingTeam()]) });
      mounted.push(r.screen);
      await waitFor(() => expect(r.screen.frame()).toContain('docs-refresh'));
      const footer = () => r.screen.frame().trimEnd().split('\n').at(-1) ?? '';
      await waitFor(() => expect(footer()).toContain('1/2/3/4 answer'));
      expect(footer()).toContain('n answer No');
      expect(footer()).toMatch(/\? help +q quit/);
    });
  }
});
