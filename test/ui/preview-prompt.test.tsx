/**
 * The preview of a member at a permission prompt, on a real tmux pane showing the dialog Claude Code
 * 2.1.332 drew (captured): a preview shorter than the dialog keeps its question and every option in
 * view. And a run none of whose members has a pane says where tower looked for one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { withPaneActivity } from '../../src/store/activity-overlay.js';
import { PaneWatch } from '../../src/store/captures.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { fixtureSnapshot, harnessRun, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { memoryStore, renderRoom, waitFor, waitForText } from './helpers.js';

const DIALOG = path.join(import.meta.dirname, '../fixtures/claude-code-2.1.332/screens/bash-prompt.70x40.txt');

let tmux: TmuxFixture | null = null;
const mounted: TestScreen[] = [];
afterEach(async () => {
  for (const s of mounted.splice(0)) s.unmount();
  await tmux?.kill();
  tmux = null;
});

/** A snapshot whose tina lead sits in `pane`. */
function withLeadIn(pane: string): Snapshot {
  const run = tinaRun();
  run.members = run.members.map((m) => (m.lead ? { ...m, paneId: pane, state: 'alive' } : m));
  return fixtureSnapshot([run]);
}

/** The preview's rows: what lies between its side borders on the lines below its title. */
function previewRows(frame: string): string[] {
  const lines = frame.split('\n');
  const top = lines.findIndex((l) => l.includes('Preview ·'));
  const col = (lines[top] ?? '').search(/[┏╭]/);
  return lines
    .slice(top + 1)
    .map((l) => l.slice(col + 1))
    .filter((l) => !/^[┗╰]/.test(l));
}

describe('the preview of a member at a prompt', () => {
  it(
    'keeps the question and every option in view when the preview is shorter than the dialog',
    { timeout: 60_000 },
    async () => {
      tmux = await startTmux();
      const pane = await tmux.newSession('agent', path.dirname(DIALOG), `cat ${path.basename(DIALOG)}; exec sleep 600`);
      const watch = new PaneWatch(tmux.client);
      const store = withPaneActivity(memoryStore(withLeadIn(pane)), watch);
      // 100×17: the preview has a few rows, fewer than the dialog has from its question down.
      const { screen } = renderRoom({ columns: 100, rows: 17, snapshot: withLeadIn(pane), props: { store, watch } });
      mounted.push(screen);
      const t = tmux;
      await waitFor(async () => (await t.client.capturePane(pane)).includes('Esc to cancel'), 15_000);
      await screen.press('p');
      await waitForText(screen, 'Preview ·');
      await watch.round([pane], null);
      await waitFor(() => expect(screen.frame()).toContain('4. No'), 15_000);
      const rows = previewRows(screen.frame());
      const text = rows.join('\n');
      // The dialog, from its question down, is taller than the preview (its key hints give way).
      expect(fs.readFileSync(DIALOG, 'utf8')).toContain('Esc to cancel');
      expect(text).not.toContain('Esc to cancel');
      expect(text).toContain('Do you want to proceed?');
      for (const option of ['1. Yes', '2. Yes, and always allow', '3. Yes, and switch to auto mode', '4. No'])
        expect(text).toContain(option);
    },
  );
});

describe('the preview of a run with no pane', () => {
  it('says where tower looked for one', async () => {
    const { screen } = renderRoom({ columns: 160, rows: 45, snapshot: fixtureSnapshot([harnessRun()]) });
    mounted.push(screen);
    await waitForText(screen, 'payments');
    await waitFor(() =>
      expect(screen.frame().replace(/[│┃]/g, ' ').replace(/\s+/g, ' ')).toContain(
        'harness names no agent or pane in its files (tower read /work/payments/.harness), and no pane ' +
          "of tower's tmux server works in /work/payments",
      ),
    );
  });
});
