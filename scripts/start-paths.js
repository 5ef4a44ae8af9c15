// What each way of starting tower loads, from esbuild's metafile: the output files reached from
// cli.js through static imports, plus the lazily imported module of the command and what it
// statically imports. Used by `npm run build` (figures) and by the test that holds the budgets.
import path from 'node:path';

/** The start paths: the entry modules loaded, in order (src paths as esbuild names them). */
export const START_PATHS = {
  'tower status': ['src/cli/cli.ts', 'src/commands/status.ts'],
  'tower (first frame)': ['src/cli/cli.ts', 'src/ui/main.tsx'],
  'tower (live screen)': ['src/cli/cli.ts', 'src/ui/main.tsx', 'src/ui/session.tsx'],
};

/**
 * Bytes of JavaScript each start path may load; the test fails above them. Measured when set
 * (Nov 2026), newest first:
 * - status 213 KB: each member's prompt read from its pane, Claude Code's hook events followed as the
 *   first source of activity, a Claude lead's context read from its transcript tail (10 KB);
 * - status 203 KB, first frame 296 KB, live screen 1,259 KB: handoffs read with micromark and
 *   mdast-util-from-markdown again, from a chunk loaded the first time a handoff's content is read
 *   (on no start path), argv by node:util's parseArgs, answering a prompt from the screen;
 * - status 215 KB, first frame 308 KB, live screen 1,257 KB: handoffs read by tower's own Markdown
 *   reader (25 KB) and the handoff sections (11 KB), now part of every path; a handoff no longer
 *   loads the 132 KB micromark file: read cold in a fresh process it takes ~9 ms, not ~30 ms
 *   (test/bench/handoff.bench.ts);
 * - status 178 KB, first frame with the runs 289 KB, live screen 1,220 KB: tower's own
 *   command-line parser in place of a general one (121 KB);
 * - status 290 KB, first frame 402 KB, live screen 1,333 KB: the Markdown parser loaded only to
 *   read a handoff (scripts/handoff-on-demand.js);
 * - status 548 KB, first frame 660 KB, live screen 1,591 KB: zod loaded only to check a config
 *   file or key overrides, execa only to run a hook or attach;
 * - status 945 KB, first frame 1,048 KB, live screen 2,250 KB;
 * - before the split into start paths: status 1,479 KB; the first frame with the runs came only
 *   with the live screen, 2,526 KB.
 */
/**
 * Bytes of dist/status.cjs, what `tower status` loads on Node 20 (scripts/status-file.js): 196 KB
 * when set (Nov 2026), the config validator and the Markdown reader apart in files of their own;
 * 208 KB with the run list kept from change to change (store/assemble.ts) and teams that ended;
 * 213 KB once every status also lists Claude Code's swarm tmux servers (src/tmux/swarm.ts); 235 KB
 * with a harness's operator API (src/systems/harness/operator.ts; zod stays out, loaded when an
 * operator answers); 242 KB with session teams and held permission requests; 252 KB with the
 * record of what each change did (src/store/delta.ts) and the fast paths for 10,000 ended teams;
 * 258 KB with the index a tina run finds its teams in, and the walk it makes before the index
 * pays (src/systems/tina/teams.ts); 261 KB once the sources were formatted at 120 columns (esbuild keeps
 * a literal on as many lines as its source has: whitespace only).
 */
// 291 KB with a held request read as the operator approves it, the line follower's bound and the
// operator's default base (the same as tower status's budget below); 307 KB measured again
// (late Nov 2026). 318 KB with Claude Code's own session files read first (src/systems/claude-teams/
// sessions.ts), a pane's evidence checked against its member (src/store/pane-evidence.ts,
// src/tmux/proc-start.ts), a dialog read from its own top rule and a teammate's request drawn in its
// lead's pane (src/store/prompt-subject.ts, forwarded-requests.ts). 323 KB measured again; 328 KB with
// a session team's lead seated by its recorded process or its own hook events (src/store/lead-seat.ts,
// hook-leads.ts); 329 KB (336,300 bytes measured) with a failed capture round, session-file or
// hook-event read said on one capped row by the activity overlay (src/store/activity-overlay.ts,
// captures.ts). 335 KB (342,158 bytes measured) with every request held for a pane shown, each bound
// by its input's hash, its whole input every field with a command one part a line and hidden or
// look-alike characters written out (src/text/visible.ts, command-parts.ts, store/held-input.ts).
// 337 KB (344,303 bytes measured) with a line without its newline skipped in the read that meets it
// (src/files/follow.ts) and `--demo` naming which demo has no control room, its marker written whole
// (src/context/demo-record.ts).
// 338 KB (345,740 bytes) with the config's near-key suggestions and JSON line and column, and one
// context figure for a tina gate.
// 342 KB (349,460 bytes) with every branch of late Nov 2026 together: the agent CLIs' modules, rules,
// the guard before typing, held requests shown whole, the audit's begun lines; the hook-events reader
// loads other CLIs' event readings alone (src/agents/hook-states.ts), not their modules.
// 343 KB (350,830 bytes) with an agent CLI's own sources laid over its members (src/store/captures.ts;
// the sources load with the agent modules only once a pane runs one).
// 343 KB (351,050 bytes) with a run whose system names no pane seated in its folder's panes
// (src/store/folder-panes.ts).
// 345 KB (352,355 bytes) with both together.
// 348 KB with the same and agent CLIs' servers followed (src/store/agent-servers.ts), a request a CLI's
// server asked shown and judged by rule (its structured request on the prompt).
// 350 KB (357,680 bytes) with opencode's server followed, merged in.
// 352 KB (359,597 bytes) with agents outside every run listed as runs of their projects
// (src/store/lone-agents.ts; the lister itself is in the agent modules' file).
export const STATUS_FILE_BUDGET = 352 * 1024;

export const START_BUDGETS = {
  // 254 KB with the swarm servers, the kept run list, the operator API, session teams and held requests (Nov 2026).
  // 264 KB with the record of what each change did (src/store/delta.ts) and the fast paths for 10,000 teams.
  // 271 KB with the index a tina run finds its teams in, and its walk (src/systems/tina/teams.ts);
  // the first frame 352 KB and the live screen 1,340 KB with them.
  // 274 KB, first frame 357 KB, live screen 1,348 KB once the sources were formatted at 120 columns:
  // esbuild keeps an object or array literal on as many lines as its source has (whitespace only).
  // 277 KB with the bounds a box's prompt is held to at the door (src/store/prompt-reading.ts).
  // 298 KB with a held request read as the operator approves it (its input parsed, the folder's
  // owner and mode, the hook's process), the line follower's bound and the operator's default base;
  // 314 KB measured again (late Nov 2026); 325 KB with the session files, a pane's evidence, the
  // dialog's own lines and a teammate's request in its lead's pane (as the status file above).
  // 329 KB measured again; 335 KB with a session team's lead seated by its recorded process or its
  // own hook events (src/store/lead-seat.ts, hook-leads.ts, hook-line.ts); 336 KB with a failed
  // capture round's problem row laid over by the overlay, sanitized and capped (as on the live screen).
  // 343 KB with every held request shown, bound by its hash and shown whole (as the status file above).
  // 347 KB (354,313 bytes) with the follower's newline scan and --demo naming a demo with no control room (as the
  // status file's 337 KB).
  // 348 KB (356,043 bytes) with the config's near-key suggestions and JSON line and column.
  // 356 KB with all of the above together (as the status file's 342 KB).
  // 358 KB (366,109 bytes) with an agent CLI's own sources laid over its members (Codex's app server and
  // rollout: src/store/captures.ts asks them, loaded with the agent modules only once a pane runs one).
  // +1 KB each with a run whose system names no pane seated in the panes of its folder (src/store/folder-panes.ts).
  // 360 KB (368,099 bytes) with both together.
  // 361 KB (368,776 bytes) with the preview captured through its control client merged in.
  // 357 KB (365,893 bytes) with what each agent CLI's answers mean (src/agents/*/answers.ts).
  // 358 KB (366,849 bytes) once the store reads Claude Code's files through its agent module
  // (src/agents/claude-code/files.ts: the same code, its chunks split anew).
  // 360 KB (368,579 bytes) with all of the above together.
  // 363 KB (371,246 bytes) with the agents' own cycle and answer keys merged in.
  // 361 KB with the same and agent CLIs' servers followed, their requests on the prompt.
  // 366 KB (374,002 bytes) with opencode's server followed, merged in.
  // 368 KB (376,322 bytes) with agents outside every run listed as runs of their projects (the
  // `agents` system, src/store/lone-agents.ts; telling their CLI loads with the agent modules).
  // 369 KB (376,851 bytes) with opencode's questions answered by their numbers and its servers'
  // lasting problems (a password asked for) as rows (src/agents/opencode/answers.ts, keys.ts).
  // 370 KB (377,862 bytes) with a poll's pane list asked of the control client already attached, when
  // one is (the registry in src/tmux/client.ts), and nonces handed out from one read of the device.
  'tower status': 370 * 1024,
  // 334 KB with the kept run list, teams that ended, the swarm servers and the operator API (Nov 2026);
  // 341 KB (live screen 1,330 KB) with the fast paths that read and lay out a box of 10,000 ended
  // teams (test/bench/status.bench.ts).
  // 347 KB (live screen 1,335 KB) with the record of what each change did, the screen's own frame
  // composer and the tallies kept from snapshot to snapshot.
  // 370 KB with the held request's whole input one key away and the same reading as tower status;
  // 387 KB measured again (late Nov 2026); 397 KB with the same reading as tower status's 325 KB and
  // the keys that say at once why they do nothing.
  // 406 KB with the lead seated by its hooks (as tower status's 330 KB); 409 KB with the panes as
  // one record each in a registry (src/ui/panes/registry.ts); still 410 KB with a dialog's
  // `↑ N more lines` row read and its subject marked cut (src/store/prompt-reading.ts).
  // 411 KB with the held requests shown whole (as tower status's 343 KB).
  // 418 KB with every ending (a hang-up, EIO, SIGTERM, SIGINT) taken through one lifecycle
  // (src/ui/terminal/ending.ts) and tower status's 346 KB.
  // 424 KB with the same, the runs list's off-screen words and the footer's answers.
  // 428 KB with all of the above together; 429 KB (439,319 bytes) with the team pane's CLI column.
  // +1 KB each with a run whose system names no pane seated in the panes of its folder (src/store/folder-panes.ts).
  // 432 KB (441,360 bytes) with the agent sources and the folder panes together.
  // 428 KB with all of the above together; 429 KB (439,326 bytes) once the live screen's actions
  // import the agent CLIs' descriptions (the chunks split anew).
  // 430 KB (440,697 bytes) with that and an agent CLI's own sources together.
  // 434 KB (443,532 bytes) with the agents' own cycle and answer keys merged in.
  // 436 KB (445,587 bytes) with opencode's server followed, merged in.
  // 438 KB (447,907 bytes) with agents outside every run (as tower status's 368 KB).
  // 439 KB (449,062 bytes) with the same as tower status's 370 KB and the preview's hold
  // (src/store/preview-stream.ts).
  'tower (first frame)': 439 * 1024,
  // Live screen 1,356 KB with the previewed pane streaming (src/store/preview-stream.ts, src/tmux/pane-output.ts).
  // 1,384 KB with the same; 1,403 KB measured again (late Nov 2026); 1,422 KB with the first frame's
  // 397 KB; 1,429 KB measured again, 1,435 KB with the lead seated by its hooks; 1,436 KB with a
  // failed capture round's problem row; 1,439 KB with the pane registry, 1,441 KB with one frame
  // derived for the screen and the keys (src/ui/frame.ts); 1,447 KB (1,480,885 bytes) with the
  // guard every typed line waits on (src/store/input-box.ts, src/actions/input-guard.ts).
  // 1,459 KB with the held requests shown whole and the answer dialog's what-it-approves and
  // read-before-y.
  // 1,469 KB (1,503,682 bytes) with the first frame's 418 KB, an audit line before acting and the interrupted ones said
  // (src/kit/audit.ts), and a sent line confirmed as the CLI shows it (src/actions/send-confirm.ts).
  // 1,475 KB with the same, the preview's question line and the activity wrap.
  // 1,497 KB with all of the above together.
  // 1,500 KB (1,535,023 bytes) with an agent CLI's own sources (as tower status's 358 KB).
  // 1,497 KB with all of the above together; 1,499 KB (1,534,245 bytes) with the team pane's CLI
  // column (each member's agent CLI, by the badges in src/model/values.ts).
  // +1 KB each with a run whose system names no pane seated in the panes of its folder (src/store/folder-panes.ts).
  // 1,502 KB (1,537,781 bytes) with both together.
  // 1,505 KB (1,540,587 bytes) with the preview captured through its control client merged in.
  // 1,508 KB (1,544,368 bytes) with the agent CLIs' descriptions the checkpoint cycle plans from (a
  // lead's CLI's own commands, src/agents/*/index.ts); 1,511 KB (1,547,521 bytes) with the answers
  // each takes and what they mean (src/agents/*/answers.ts).
  // 1,512 KB (1,548,588 bytes) with the store reading Claude Code's files through its module.
  // 1,514 KB (1,550,389 bytes) with all of the above together.
  // 1,520 KB (1,556,089 bytes) with the agents' own cycle and answer keys merged in.
  // 1,509 KB with the same, answers through a CLI's server and by a selection moved by keys.
  // 1,532 KB (1,568,209 bytes) with opencode's server followed, merged in.
  // 1,535 KB (1,571,282 bytes) with each CLI's keys light, for the plans to show them.
  // 1,536 KB (1,571,919 bytes) with agents outside every run, kept up to date by the live store;
  // 1,539 KB (1,574,992 bytes) with the plan's own keys of each CLI merged in.
  // 1,540 KB (1,576,792 bytes) with what an answer by keys or through a CLI's server approves,
  // shown whole (src/actions/answer-approves.ts), and an answer refused where no prompt was seen.
  // 1,540 KB (1,576,517 bytes) with opencode's questions answered by their numbers, its servers'
  // lasting problems as rows and the first tick waiting for a new server's first answer.
  // 1,541 KB (1,577,395 bytes) with both together.
  'tower (live screen)': 1541 * 1024,
};

/** The Markdown library handoffs are read with, and its family: loaded only to read a handoff's content. */
const MARKDOWN_PARSER = ['micromark*', 'mdast-util-*', 'decode-named-character-reference', 'character-entities*'];

/**
 * Packages that must stay off a start path (a name ending in `*` stands for every name it begins):
 * the screen's machinery is not needed to print or paint text, the validator only to check a config
 * file that exists, execa only to run a hook or attach, the Markdown library only to read a handoff.
 */
export const KEPT_OFF = {
  'tower status': [
    'react',
    'react-reconciler',
    'ink',
    'yoga-layout',
    'chokidar',
    'chalk',
    'zod',
    'execa',
    ...MARKDOWN_PARSER,
  ],
  'tower (first frame)': [
    'react',
    'react-reconciler',
    'ink',
    'yoga-layout',
    'chokidar',
    'zod',
    'execa',
    ...MARKDOWN_PARSER,
  ],
  'tower (live screen)': ['zod', 'execa', ...MARKDOWN_PARSER],
};

/** The packages of `present` that `keptOff` names (exactly, or by a prefix ending in `*`). */
export function offenders(keptOff, present) {
  return [...present].filter((pkg) =>
    keptOff.some((name) => (name.endsWith('*') ? pkg.startsWith(name.slice(0, -1)) : pkg === name)),
  );
}

/** Output file → { bytes, files (static imports) } and entry module → output file. */
function graph(metafile) {
  const outputs = new Map();
  const byEntry = new Map();
  for (const [file, out] of Object.entries(metafile.outputs)) {
    if (file.endsWith('.map')) continue;
    const imports = out.imports.filter((i) => !i.external && i.kind === 'import-statement').map((i) => i.path);
    outputs.set(file, { bytes: out.bytes, imports, inputs: out.inputs });
    if (out.entryPoint) byEntry.set(out.entryPoint, file);
  }
  return { outputs, byEntry };
}

/** For each start path: the output files it loads and their total bytes. */
export function startPaths(metafile, paths = START_PATHS) {
  const { outputs, byEntry } = graph(metafile);
  const result = {};
  for (const [name, entries] of Object.entries(paths)) {
    const seen = new Set();
    const visit = (file) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const next of outputs.get(file)?.imports ?? []) visit(next);
    };
    for (const entry of entries) {
      const file = byEntry.get(entry);
      if (!file) throw new Error(`no output for ${entry}`);
      visit(file);
    }
    const files = [...seen];
    const bytes = files.reduce((n, f) => n + (outputs.get(f)?.bytes ?? 0), 0);
    // The biggest inputs on the path, to say where the bytes come from.
    const inputs = new Map();
    for (const f of files)
      for (const [input, { bytesInOutput }] of Object.entries(outputs.get(f)?.inputs ?? {}))
        inputs.set(input, bytesInOutput);
    result[name] = { bytes, files: files.map((f) => path.basename(f)), inputs };
  }
  return result;
}

/** Bytes by package (node_modules/<pkg>) or `src`, biggest first. */
export function byPackage(inputs) {
  const sums = new Map();
  for (const [input, bytes] of inputs) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const key = m ? m[1] : 'src';
    sums.set(key, (sums.get(key) ?? 0) + bytes);
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}
