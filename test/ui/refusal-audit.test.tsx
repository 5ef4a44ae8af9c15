/** A refusal on the screen (nothing to act on, a plan that could not be made) is recorded in the audit log like the CLI's. */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { actionsFor } from '../../src/remote/boxes.js';
import { actionWorld } from '../actions/kit.js';
import { tempDir } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { fixtureSnapshot, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { memoryStore, renderRoom, waitFor, waitForText } from './helpers.js';

const mounted: TestScreen[] = [];
const homes: string[] = [];
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

describe('refusals on the screen', () => {
  it('reach the actions as a refused plan (recorded, never executed)', async () => {
    const { screen, actions } = renderRoom({ columns: 120, rows: 40, snapshot: fixtureSnapshot([tinaRun()]) });
    mounted.push(screen);
    await screen.press('g');
    await waitForText(screen, 'no pending gate tower can grant');
    await waitFor(() => actions.ran.length === 1);
    expect(actions.ran[0]?.plan).toMatchObject({
      request: { kind: 'grant' },
      refusal: expect.stringContaining('no pending gate'),
    });
    expect(actions.planned).toHaveLength(0);
    await screen.press('\u001b');
    await waitForText(screen, 'refused grant');
  });

  it('are written to the audit log by the real actions', async () => {
    const home = tempDir('tower-home-');
    homes.push(home);
    const w = actionWorld(uniqueSocketName(), home);
    const snapshot = fixtureSnapshot([tinaRun()]);
    w.setSnapshot(snapshot);
    const real = actionsFor(w.env, memoryStore(snapshot), { suspend: () => {}, resume: () => {} });
    const { screen } = renderRoom({ columns: 120, rows: 40, snapshot, props: { actions: real } });
    mounted.push(screen);
    await screen.press('g');
    await waitForText(screen, 'no pending gate tower can grant');
    const entry = await waitFor(() => w.audit().find((a) => a.action === 'grant'), 5000);
    expect(entry).toMatchObject({
      action: 'grant',
      run: tinaRun().id,
      outcome: 'refused',
      message: expect.stringContaining('no pending gate'),
    });
  });
});
