/**
 * The answer keys on Claude Code 2.1.332's Bash dialog, read from its captured screen: four options,
 * the one that says No being 4. `n` asks for that option whatever its number, `4` for option 4.
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

function askingRun() {
  const prompt = readPrompt(readFixture('claude-code-2.1.332/screens/bash-prompt.200x50.txt'))!;
  const run = { ...emptyRun('claude-team', 'docs', '/work/docs', null), status: 'waiting' as const };
  run.members = [
    member('team-lead', {
      lead: true,
      paneId: '%1',
      state: 'alive',
      activity: 'waiting',
      activityCue: 'question',
      prompt,
    }),
  ];
  return { run, prompt };
}

describe('answer keys on a four-option dialog', () => {
  it('n asks for the option that says No, 4 for option 4, each with the dialog seen', async () => {
    const { run, prompt } = askingRun();
    const r = renderRoom({ columns: 120, rows: 40, snapshot: fixtureSnapshot([run]) });
    mounted.push(r.screen);
    await waitFor(() => r.screen.frame().includes('docs'));
    await r.screen.press('n');
    await waitFor(() => r.actions.planned.length === 1);
    await r.screen.press('\u001b');
    await r.screen.press('4');
    await waitFor(() => r.actions.planned.length === 2);
    expect(r.actions.planned).toEqual([
      { kind: 'answer', run: 'claude-team:docs', members: ['%1'], choice: 'n', expect: prompt.signature },
      { kind: 'answer', run: 'claude-team:docs', members: ['%1'], choice: '4', expect: prompt.signature },
    ]);
  });
});
