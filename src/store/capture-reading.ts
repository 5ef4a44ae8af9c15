/**
 * What one capture says: the member's activity and the dialog it shows, read by the pane's own CLI
 * module (loaded with the first pane captured), and the look kept for it against the last one.
 */
import type { PaneCapture } from '../tmux/capture.js';

/** A capture that shows the pane. */
type Shown = Extract<PaneCapture, { ok: true }>;
import { sanitize } from '../text/sanitize.js';
import type * as AgentModules from '../agents/pane-process.js';
import { readPane } from './pane-reading.js';
import type { PaneLook } from './pane-looks.js';
import { readPrompt } from './prompt-reading.js';

/**
 * The agent CLI modules, loaded with the first pane captured: a start with no pane (and the status
 * file, where they are a file of their own) carries none of them.
 */
let agentModules: Promise<typeof AgentModules> | null = null;
export const agents = () => (agentModules ??= import('../agents/pane-process.js'));

/**
 * Output that changed this recently still counts as moving: agents print in bursts, and a pane
 * captured between two bursts is not idle yet.
 */
export const MOVING_MS = 12_000;

/**
 * What one capture shows, read by the pane's own CLI module; a CLI tower does not know is read as
 * Claude Code's screen always was.
 */
async function readCapture(cap: { text: string; command: string; pid?: number | null }, moving: boolean) {
  const plain = sanitize(cap.text);
  const { paneAgent, waysOf } = await agents();
  const agent = paneAgent(cap.command, cap.pid);
  const screen = agent?.cli ? (await waysOf(agent.cli)).screen : null;
  const reading = screen ? screen.read(plain, moving, cap.command) : readPane(plain, moving, cap.command);
  const read = reading.cue === 'question' ? (screen ? screen.prompt(plain) : readPrompt(plain)) : null;
  return { agent, reading, read };
}

/** The CLI a capture's pane runs with its ways loaded, for following its server; null for none. */
export async function cliOf(cap: { command: string; pid?: number | null }) {
  const { paneAgent, waysOf, paneArgv } = await agents();
  const cli = paneAgent(cap.command, cap.pid)?.cli;
  return cli ? { cli, ways: await waysOf(cli), paneArgv } : null;
}

/** Whether two looks of a pane say the same of its member (all the activity overlay reads of a look). */
export function readsTheSame(a: PaneLook, b: PaneLook): boolean {
  return (
    a.reading.activity === b.reading.activity &&
    a.reading.cue === b.reading.cue &&
    a.since === b.since &&
    a.agent === b.agent &&
    a.prompt?.signature === b.prompt?.signature &&
    a.prompt?.since === b.prompt?.since
  );
}

/**
 * The look of a pane after a capture (`prev` its last one, `now` the round's time), or null when the
 * capture says nothing new: the same text, and output still moving if it was.
 */
export async function nextLook(prev: PaneLook | undefined, cap: Shown, now: number) {
  const movedAt = prev && prev.text !== cap.text ? now : (prev?.movedAt ?? 0);
  const moving = movedAt > 0 && now - movedAt < MOVING_MS;
  if (prev && prev.text === cap.text && (prev.reading.cue !== 'output-moving' || moving)) return null;
  const { agent, reading, read } = await readCapture(cap, moving);
  const since = prev && prev.reading.activity === reading.activity ? prev.since : now;
  // The same dialog read again keeps the time it was first seen: how old it is decides when keys may go in.
  const first = prev?.prompt && read && prev.prompt.signature === read.signature ? prev.prompt.since : undefined;
  const prompt = read ? { ...read, since: first ?? new Date(now).toISOString() } : null;
  const look: PaneLook = { text: cap.text, reading, since, movedAt, prompt, agent: agent?.id ?? null };
  if (typeof cap.pid === 'number') look.pid = cap.pid;
  return { look, cli: agent?.cli };
}
