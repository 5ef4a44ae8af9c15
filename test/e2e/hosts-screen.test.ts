/**
 * Two build boxes on one screen: the real tower in a private tmux server, reading two boxes over
 * real ssh (private sshd instances); a file written on a box shows on the screen, and attach opens
 * the member's pane on that box's own tmux server through `ssh -t`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteBox } from '../helpers/remote-box.js';
import { agentPane, startFleet, writeCrew } from '../helpers/ssh-fleet.js';
import type { ControlRoom, Fleet } from '../helpers/ssh-fleet.js';

let fleet: Fleet;
let boxB: RemoteBox;
let room: ControlRoom;

beforeAll(async () => {
  fleet = await startFleet('tower-e2e-hosts', { a: 'alpha', b: 'beta' });
  const boxA = fleet.boxes.a!;
  boxB = fleet.boxes.b!;
  // Box a's own tmux server, with one agent pane that a team on that box names as its lead; in the
  // project its team works in: a pane elsewhere is another agent's.
  const pane = await agentPane(boxA.socketName, boxA.root, "printf 'PANE-ON-BOX-A\\n'; exec sleep 100000");
  writeCrew(boxA.claudeDir, boxA.root, [{ name: 'lead', pane }]);
  room = await fleet.controlRoom({ local: false, hosts: [fleet.host(boxA), fleet.host(boxB)] });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
});

describe('two boxes on one screen', () => {
  it('shows both boxes with their hosts, and a file written on a box reaches the screen', async () => {
    const first = await room.waitForScreen(/HOST[\s\S]*(?:alpha[\s\S]*beta|beta[\s\S]*alpha)/);
    expect(first).toMatch(/ a +harness +alpha/);
    expect(first).toMatch(/ b +harness +beta +waiting +CHK 1/);
    boxB.openCheckpoint('hotfix');
    await room.waitForScreen(/ b +harness +beta +waiting +CHK 2/, 10_000);
  });

  it('attaches to a member pane on its box over ssh -t and comes back on detach', async () => {
    await room.waitForScreen(/ a +claude +crew/);
    await room.press('/', 'c', 'r', 'e', 'w', 'Enter');
    await room.waitForScreen('filter: crew');
    await room.press('a');
    await room.waitForScreen('PANE-ON-BOX-A');
    // Detach the box's tmux client (its prefix is C-b): ssh ends and the control room comes back. On a
    // busy machine the client may still be setting up its terminal when the first C-b comes (the d
    // then reaches the pane): the keys are pressed again while the box's pane is still on screen.
    for (let tries = 0; tries < 4; tries++) {
      await room.tmux('send-keys', '-t', 'tower', 'C-b', 'd');
      const back = await room.waitForScreen(/back from %\d+ on a/, 5000).then(
        () => true,
        () => false,
      );
      // Pressed again only while the box's pane is still drawn: detached, its screen is gone.
      if (back || !(await room.screen()).includes('PANE-ON-BOX-A')) break;
    }
    await room.waitForScreen(/back from %\d+ on a/);
    expect(room.audit().at(-1)).toMatchObject({
      action: 'attach',
      run: 'a/claude-team:crew',
      outcome: 'done',
      remote: 'a',
    });
    // The keys are ours again.
    await room.press('q');
    await room.waitForScreen('TOWER-EXIT=0');
  });
});
