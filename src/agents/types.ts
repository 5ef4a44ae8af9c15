/**
 * What tower knows about one agent CLI (Claude Code, Codex, …), in one typed shape. The store, the
 * actions and the door loop over the registry's list (registry.ts) and never name a CLI; everything
 * particular to one (how its pane is told, where its state is, how its dialog reads, how keys land
 * in it, its context, its checkpoint commands) lives in its folder under src/agents/. docs/agents.md
 * says what each module gives and what each CLI was seen to do.
 *
 * A module is two parts: a light description (`AgentCli`, on every start path: a few strings and a
 * test on a pane's process) and the reading and typing (`AgentWays`), loaded by `load()` only once a
 * pane runs that CLI.
 */
import type { Activity, ActivitySource, AgentId } from '../model/values.js';

export type { AgentId, ActivitySource } from '../model/values.js';

/** What is known of a pane's processes when it is matched to a CLI (the capture reads these). */
export interface PaneProcess {
  /** tmux's `#{pane_current_command}` (a node launcher shows as `node`). */
  command: string;
  /**
   * The argv of the pane's first process and its descendants, the pane's own first (from
   * /proc/<pid>/cmdline, each bounded); empty when /proc does not say.
   */
  argv: readonly (readonly string[])[];
}

/** How a CLI is told in a pane: by its process, else by the files only it writes. */
export interface PaneRecognition {
  /** `#{pane_current_command}` values that are this CLI by themselves (`claude`, `codex`). */
  commands: readonly string[];
  /**
   * Whether a process's argv is this CLI (a launcher such as `node …/bin/codex.js`, a native binary
   * under its package's folder). Called only when `commands` did not match.
   */
  argv(argv: readonly string[]): boolean;
}

/**
 * A source of a CLI's state, as the module lists them from exactest to last: its own files or
 * server first, hooks next, the screen last. `activitySource` on a member names the one that spoke.
 */
export interface StateSource {
  source: ActivitySource;
  /** What it is, in words for docs and the activity overlay ("`thread/list` on the shared app server"). */
  what: string;
  /** Whether it needs setup by the operator (hooks installed, a notify command): such a source may be missing. */
  needsSetup: boolean;
}

/** One option of a prompt as its dialog numbers it. Same shape as the store's PromptOption. */
export interface AgentPromptOption {
  /** What the operator types to choose it (`1`, `y`, `n`). */
  key: string;
  label: string;
}

/** A permission dialog or question read from a screen. Same shape as the store's PanePrompt. */
export interface AgentPrompt {
  /** The question line, as drawn. */
  question: string;
  /** What it is about: the dialog's own lines above the question (the tool, the reason, the command), whole. */
  subject: string[];
  options: AgentPromptOption[];
  /** The prompt as a whole (question, subject, options), telling it from another one. */
  signature: string;
  /** The member whose pane draws it, when that is another one. */
  drawnIn?: string;
  /** When tower first saw this dialog (ISO). */
  since?: string;
  /** The request as the CLI's server gave it (id, tool, input whole), where the prompt comes from there. */
  request?: { id: string; tool: string; whole: string };
}

/** What a cue the screen gave means (carried as `activityCue`). */
export type AgentCue = 'interrupt-hint' | 'question' | 'output-moving' | 'prompt' | 'shell' | 'silent';

/** What a screen says the agent is doing. Same shape as the store's PaneReading. */
export interface AgentReading {
  activity: Activity;
  cue: AgentCue;
}

/** How a CLI's screen is read: its activity, its prompt, whether a prompt went. All pure. */
export interface ScreenWays {
  /**
   * The activity a screen shows. `plain` is the screen without escapes, `moved` whether it differs
   * from the previous capture, `command` the pane's `#{pane_current_command}`.
   */
  read(plain: string, moved: boolean, command: string): AgentReading;
  /** The dialog or question at the bottom of the screen, read whole; null when none (or one not read whole). */
  prompt(plain: string): AgentPrompt | null;
  /** Whether the dialog `before` is gone from a screen (answered, or another one in its place). */
  gone(plain: string, before: AgentPrompt): boolean;
  /** The option a choice (`1`, `y`, `n`, …) means in this prompt, or null. */
  option(p: AgentPrompt, choice: string): AgentPromptOption | null;
  /**
   * Whether the input box still holds `typed` (not submitted yet). Absent: the box is the last line
   * starting `>` or `❯` among the last few (Claude Code's).
   */
  inputHolds?(plain: string, typed: string): boolean;
  /**
   * Why the screen is not at its input box, ready for a typed line (a dialog, a dialog taller than the
   * pane, one tower cannot read, a half-drawn frame, no box at all), or null when it positively is.
   * The guard before every typed line asks it: a screen a module cannot read as its input box is refused.
   */
  atInput(plain: string): NotAtInput | null;
}

/** Why a screen is not at its input box; `kind` names the shape seen, `reason` says it in words. */
export interface NotAtInput {
  kind: 'dialog' | 'tall-dialog' | 'unknown-dialog' | 'half-drawn' | 'no-input-box';
  reason: string;
}

/**
 * One tmux `send-keys` call's arguments after `-t <pane>`: `['-l', '--', text]` for literal text,
 * `['-H', '0D']` for a raw carriage return, `['Escape']` for a named key.
 */
export type SendKeys = readonly string[];

/** How keys are typed so that they land in this CLI. */
export interface TypingWays {
  /**
   * The calls that choose `option` in a dialog the screen shows (Claude Code: the digit, then CR; Codex: the
   * key alone).
   */
  answer(option: AgentPromptOption): readonly SendKeys[];
  /** The calls that type a line into the input box and submit it. */
  line(text: string): readonly SendKeys[];
  /**
   * Present: the line goes in as one bracketed paste (tmux `paste-buffer -p`) and these keys then
   * submit it, instead of `line`: a CLI that reads a fast burst of keys as an unbracketed paste
   * (Codex) takes a carriage return right after it for a newline, not a submit.
   */
  submitAfterPaste?: readonly SendKeys[];
  /**
   * How old a dialog must be before a key typed into it is taken (ms): a CLI may drop keys that come right
   * after it draws.
   */
  minDialogAgeMs: number;
  /**
   * Present: the submit keys after a paste wait until the box draws the pasted text (`inputHolds`),
   * for a CLI that drops a carriage return coming before that (Gemini CLI).
   */
  submitWhenDrawn?: boolean;
  /**
   * Present: a dialog whose options are not keys of their own but a selection moved by keys
   * (opencode's). An option is taken by moving the selection onto it, reading it back from a capture
   * with escapes, then `confirm`; the options listed here are the ones that may be taken so.
   */
  select?: SelectWays;
}

/** How a dialog's selection is moved (light: a plan names the keys), without how it is read. */
export interface SelectKeys {
  /** The labels in the order the selection moves through them (it wraps). */
  order: readonly string[];
  /** The key that moves the selection to the next label. */
  next: SendKeys;
  /** The key that takes the selected option. */
  confirm: SendKeys;
  /** The labels that may be taken by moving and confirming (others ask more, or have a key of their own). */
  takes: readonly string[];
}

/**
 * The keys a CLI takes a choice and a line by, light: an action's plan and its confirm show these
 * very calls before the CLI's module loads, and the module types with the same.
 */
export interface KeyTyping {
  answer: TypingWays['answer'];
  /** How old a dialog must be before a key typed into it is taken (ms); the plan says it, the run waits it. */
  minDialogAgeMs: number;
  line: TypingWays['line'];
  submitAfterPaste?: readonly SendKeys[];
  submitWhenDrawn?: boolean;
  select?: SelectKeys;
}

/** How a dialog's selection is moved and read (it shows only in colour). */
export interface SelectWays extends SelectKeys {
  /** The option the dialog has selected, read from a capture with escapes (`capture-pane -e`), or null. */
  selected(escaped: string): AgentPromptOption | null;
}

/** How full an agent's context is and the tokens its turns used, as the CLI's own files say. */
export interface AgentUsage {
  /** Per cent of the window in use, 0–100. */
  usedPct: number;
  /** Tokens in the context now. */
  used: number;
  /** The model's context window. */
  window: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

/** A command typed into the agent for a step of the checkpoint cycle, or why the CLI has none. */
export type CycleCommand = { command: string } | { refusal: string };

/**
 * The checkpoint cycle's steps as this CLI takes them. A system's own cycle commands (tina's
 * `/tina:checkpoint`, a team's `/checkpoint` and `/rehydrate`) are Claude Code commands: a CLI that
 * does not run them (`systemCommands: false`) goes through the cycle with its own: `tower checkpoint`
 * types `compact`, `tower rehydrate` types `clear`, each confirmed on its screen (`CycleConfirm`).
 */
export interface CycleCommands {
  /** Empties the conversation, the agent going on in the same pane (Claude Code: `/clear`; Codex: `/new`). */
  clear: CycleCommand;
  /** Has the agent write its own handoff and go on from it (Codex: `/compact`). */
  compact: CycleCommand;
  /** Whether it runs a system's own slash commands (Claude Code's custom commands and plugin skills). */
  systemCommands: boolean;
}

/**
 * How a CLI's screen shows that a step of its own cycle took, pure. `before` is the screen right
 * before the command was typed, `after` one since; each is true only once the command left the
 * input box and the CLI drew what it draws for it.
 */
export interface CycleConfirm {
  /** The conversation restarted: none of it is on the screen, the input box at rest. */
  cleared(before: string, after: string): boolean;
  /** The conversation was compacted (one more compaction drawn than before). */
  compacted(before: string, after: string): boolean;
}

/** A pane the store saw running a CLI, handed to that CLI's own state source. */
export interface AgentPane {
  /** The pane's key among captures (`%3`, or `<server>/%3`). */
  key: string;
  /** The pane's first process (`#{pane_pid}`). */
  pid: number;
}

/** What a CLI's own source (its server, its log of the turn) says the agent in one pane is doing. */
export interface AgentState {
  activity: Activity;
  cue: AgentCue;
  /** Since when (epoch ms), as far as the source or tower saw; null when unknown. */
  since: number | null;
  source: ActivitySource;
  /** Its context and tokens, when the source gives them. */
  usage: AgentUsage | null;
}

/**
 * A CLI's own sources of state, followed for the panes that run it: asked again (bounded, at a
 * modest interval of its own) only while such a pane exists. Never throws: what it could not read
 * is a line in `problems`.
 */
export interface AgentStateSource {
  /** Reads again for these panes (all that run the CLI now); whether any pane's state changed. */
  refresh(panes: readonly AgentPane[], now: number): Promise<boolean>;
  /** What it says of a pane (by key), or null: the store then reads hooks and the screen. */
  stateOf(key: string): AgentState | null;
  /** Why a source could not speak (an app server that did not answer, agents it cannot tell apart), one line each. */
  problems: readonly string[];
}

/** What the guard before typing knows of a pane, read right before it types. */
export interface PaneAtTyping {
  /** The pane's first process (`#{pane_pid}`). */
  pid: number;
  /** The argv of that process and its descendants, bounded (pane-process.ts `paneArgv`). */
  argv: readonly (readonly string[])[];
  /** The newest event tower's hook line wrote for the pane, within its time to live, and what it says; or null. */
  hook: { event: string; activity: Activity; cue: string } | null;
}

/** The parts of a module loaded only once a pane runs the CLI. */
export interface AgentWays {
  /** Its own sources of state beyond the screen (a server, a log of the turn), made once per store; absent: none. */
  state?(): AgentStateSource;
  screen: ScreenWays;
  typing: TypingWays;
  /** The context and tokens in one of the CLI's own files (a transcript, a rollout), or null when it says none. */
  usage(file: string): AgentUsage | null;
  /** How its own cycle's steps are confirmed; absent for a CLI whose cycle is the system's commands or refused. */
  cycle?: CycleConfirm;
  /** The CLI's own server, where a pane's process serves one: the exact source of its state and answers. */
  server?: ServerWays;
  /**
   * Why the CLI's own state (its server, its hook events), read now and bounded in time, says the
   * pane waits for permission or an answer; null when it does not say so or cannot be read. The
   * guard before typing refuses on it whatever the screen shows. Absent: the screen alone.
   */
  waitsForPermission?(pane: PaneAtTyping): Promise<string | null>;
}

/** A request waiting on a CLI's server, whole and structured as the server gave it. */
export interface ServerRequest {
  /** The server's own id of the request. */
  id: string;
  /** The tool as rules and the dialog name it (`Bash`). */
  tool: string;
  /** The tool's input (`{command}` for a shell command), as the server gave it. */
  input: Record<string, unknown>;
  /** The input as one line of JSON, what an answer by rule is bound to. */
  whole: string;
}

/** What a CLI's server says its agent is doing now. */
export interface ServerReading {
  activity: Activity;
  cue: AgentCue;
  /** Since when (epoch ms). */
  since: number;
  /** The oldest request waiting, as the prompt shown and answered, with its request. */
  prompt: AgentPrompt | null;
  request: ServerRequest | null;
  usage: AgentUsage | null;
}

/** One server followed: its events as they come, reconnecting when the stream ends. */
export interface ServerFollow {
  /** What it says now; null while not connected, or before it has said anything. */
  read(): ServerReading | null;
  /** Why it is not followed, where that lasts (a password asked for, the server away a while), or null. */
  problem(): string | null;
  /** Resolves once the first connect has been tried (it worked, or it failed). */
  ready(): Promise<void>;
  close(): void;
}

/** How a CLI's server is found, followed and answered through. */
export interface ServerWays {
  /** The port one of the pane's processes serves on, by its argv, or null. */
  portOf(argv: readonly string[]): number | null;
  /** Follows the server on 127.0.0.1:`port`; `onChange` is called when what `read` says may have changed. */
  follow(port: number, onChange: () => void): ServerFollow;
  /**
   * Answers the request a prompt's `signature` names with `choice` (`1`/`y` once, `2` always,
   * `3`/`n` reject), only while the server still lists it with the same input; the label taken.
   */
  answer(
    port: number,
    signature: string,
    choice: string,
  ): Promise<{ ok: true; label: string } | { ok: false; problem: string }>;
  /** The port a prompt's signature was read from, or null when it is not one of this server's. */
  portOfSignature(signature: string): number | null;
}

/** One agent CLI tower knows. */
export interface AgentCli {
  id: Exclude<AgentId, 'unknown'>;
  /** Its name in sentences and in the Team pane ("Claude Code", "Codex"). */
  label: string;
  /** Its badge where space is short (the Team pane): a few letters. */
  badge: string;
  /** The npm package and exact version tower's tests run (the pin in package.json), for docs. */
  tested: { pkg: string; version: string };
  recognise: PaneRecognition;
  /**
   * Its own files list a pane of it that is outside every run (Claude Code's session teams): the
   * store does not list such a pane again as an agent of its project.
   */
  listsItself?: true;
  /** Its sources of state, exactest first; the screen is always last. */
  sources: readonly StateSource[];
  /**
   * What one of its hook events says (tower's hook line writes every CLI's events to one file, keyed
   * by pane), for event names that are its own; null for one that says nothing. Absent: the store's
   * reading of Claude Code's events is all.
   */
  hookState?(event: string, notificationType: string | null): { activity: Activity; cue: AgentCue } | null;
  /** Its commands for the checkpoint cycle (strings: an action's plan shows them before anything loads). */
  cycle: CycleCommands;
  /**
   * Every answer `tower answer` takes for its dialogs: the option numbers it draws and its own
   * letters (Codex: `1`/`y`, `2`/`p`, `3`/`n`/`esc`), lower case, at most 8 characters each. A
   * choice outside them is refused before anything is looked at; the door holds a box's prompts and
   * answers to the union of every module's (registry.ts, `ANSWER_KEYS`).
   */
  answerKeys: readonly string[];
  /** The option an answer (one of `answerKeys`) means in a prompt it drew, or null; pure and light. */
  option(p: AgentPrompt, choice: string): AgentPromptOption | null;
  /** The keys it takes a choice and a line by (its ways type with these; a plan shows them). */
  keys: KeyTyping;
  /** Loads the reading and typing parts (a dynamic import: only panes running this CLI pay for it). */
  load(): Promise<AgentWays>;
}
