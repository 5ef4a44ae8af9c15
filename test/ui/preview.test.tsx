/** The preview pane on a real tmux pane: live output, hostile content made safe, scrolling back. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { PaneWatch } from '../../src/store/captures.js';
import { withPaneActivity } from '../../src/store/activity-overlay.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { tinaRun, fixtureSnapshot } from './fixtures.js';
import { memoryStore, renderRoom, waitFor, waitForText } from './helpers.js';

let tmux: TmuxFixture | null = null;
let dir: string | null = null;
afterEach(async () => {
  await tmux?.kill();
  tmux = null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A snapshot whose tina lead sits in `pane`. */
function withLeadIn(pane: string): Snapshot {
  const run = tinaRun();
  run.members = run.members.map((m) => (m.lead ? { ...m, paneId: pane, state: 'alive' } : m));
  return fixtureSnapshot([run]);
}

describe('the preview pane', () => {
  it("shows the lead's output as it comes, without the escapes a pane prints", { timeout: 60_000 }, async () => {
    tmux = await startTmux();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tower-preview-'));
    const script = path.join(dir, 'agent.sh');
    // A title change, a bell, cursor movement and a bidi override among ordinary lines; then a line a second.
    fs.writeFileSync(
      script,
      `printf '\\033]2;pwned\\007\\007\\033[31mcompiling\\033[0m \\342\\200\\256evil\\n\\033[5;5Hjumped\\n'; sleep 1.5; i=0; while true; do i=$((i+1)); echo "step $i"; sleep 0.1; done\n`,
    );
    const pane = await tmux.newSession('agent', dir, `sh ${script}`);
    const watch = new PaneWatch(tmux.client);
    const inner = memoryStore(withLeadIn(pane));
    const store = withPaneActivity(inner, watch);
    const { screen } = renderRoom({ columns: 140, rows: 40, snapshot: withLeadIn(pane), props: { store, watch } });
    const t = tmux;
    await waitFor(async () => (await t.client.capturePane(pane)).includes('jumped'), 15_000);
    await watch.round([pane], null);
    await waitForText(screen, 'compiling <U+202E>evil', 15_000);
    expect(screen.frame()).toContain(`Preview · team-lead ${pane}`);
    expect(screen.frame()).not.toContain('pwned');
    expect(screen.frame()).not.toMatch(/\u0007|\u001b\]/);
    // New output follows: the last step shown grows with each capture.
    const stepOf = () => Math.max(...[...screen.frame().matchAll(/step (\d+)/g)].map((m) => Number(m[1])));
    await new Promise((r) => setTimeout(r, 2000));
    await watch.round([pane], null);
    await waitFor(() => stepOf() > 0, 15_000);
    const first = stepOf();
    await new Promise((r) => setTimeout(r, 700));
    await watch.round([pane], null);
    await waitFor(() => stepOf() > first, 15_000);
    // p focuses the preview; k scrolls back one line and the title says so; End follows again.
    await screen.press('p');
    await waitForText(screen, '[> Preview', 15_000);
    await new Promise((r) => setTimeout(r, 2000));
    await watch.round([pane], null);
    await screen.press('k', 'k');
    await waitForText(screen, '2 lines back', 15_000);
    await screen.press('\u001b[F');
    await waitForText(screen, '· live', 15_000);
    screen.unmount();
  });
});
