/**
 * `tower rules check|test`: the rules that answer held permission requests, read the way the live
 * screen reads them (the same trust checks). `check` says what each rule means; `test` says which
 * rule decides a request (given as Claude Code's PermissionRequest JSON, or held now by its id) and
 * why, answering nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context/context.js';
import { stateHome } from '../config/config.js';
import { rulesFileOf } from '../actions/rule-follow.js';
import { ownerOf, placeOf, ruleInputOf } from '../actions/rule-answer.js';
import { serverSocket } from '../actions/pane-client.js';
import { loadRules } from '../rules/load.js';
import type { LoadedRules } from '../rules/load.js';
import { judge } from '../rules/match.js';
import type { RuleRequest } from '../rules/match.js';
import { commandParts } from '../rules/shell.js';
import { ruleMeaning } from '../rules/words.js';
import { heldRequests } from '../store/held-requests.js';
import { readHeldInput } from '../store/held-input.js';
import { readThisBox } from '../store/this-box.js';
import { resolveRun } from '../store/snapshot.js';
import { sanitizeLine } from '../text/sanitize.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

export interface RulesOptions {
  rules?: string | undefined;
  request?: string | undefined;
  held?: string | undefined;
  run?: string | undefined;
  member?: string | undefined;
}

/** The rules file tower reads: --rules, else the config's `rulesFile`, else rules.json beside the config. */
function rulesFile(ctx: AppContext, flag: string | undefined): string {
  return flag ? path.resolve(flag) : rulesFileOf(ctx);
}

/** Runs `tower rules <verb>`. */
export async function rulesCommand(ctx: AppContext, verb: string, o: RulesOptions): Promise<number> {
  const loaded = loadRules(rulesFile(ctx, o.rules));
  const say = (line: string) => ctx.out.write(`${line}\n`);
  if (verb === 'check') return check(loaded, say);
  if (verb === 'test') return test(ctx, loaded, o, say);
  ctx.err.write(`tower: rules takes check or test, not "${sanitizeLine(verb)}"\n`);
  return EXIT_USAGE;
}

function check(loaded: LoadedRules, say: (l: string) => void): number {
  if (loaded.problem) {
    say(`${loaded.problem}`);
    return EXIT_FAILURE;
  }
  if (loaded.rules.length === 0) {
    say(`${loaded.file}: no rules; every request is asked as before`);
    return EXIT_OK;
  }
  say(
    `${loaded.file}: ${loaded.rules.length} rule(s); deny wins, then ask, then allow; a request no ` +
      `rule matches is asked`,
  );
  for (const c of loaded.rules) say(`  ${sanitizeLine(ruleMeaning(c))}`);
  return EXIT_OK;
}

/** A request as Claude Code's PermissionRequest JSON (text, or `@file`), or why not. */
function requestOfJson(text: string): Pick<RuleRequest, 'tool' | 'input' | 'cwd'> | { error: string } {
  const json = text.startsWith('@') ? fs.readFileSync(text.slice(1), 'utf8') : text;
  const shown = readHeldInput(json);
  if ('unreadable' in shown) return { error: `the request is never judged by rule: ${shown.unreadable}` };
  const raw = JSON.parse(json) as { tool_input: Record<string, unknown>; cwd?: unknown };
  return { tool: shown.tool, input: raw.tool_input, cwd: typeof raw.cwd === 'string' ? raw.cwd : null };
}

async function test(ctx: AppContext, loaded: LoadedRules, o: RulesOptions, say: (l: string) => void): Promise<number> {
  if (loaded.problem) {
    say(`${loaded.problem}`);
    return EXIT_FAILURE;
  }
  if ((o.request === undefined) === (o.held === undefined)) {
    ctx.err.write('tower: rules test takes a request: --request JSON (or @FILE), or --held ID\n');
    return EXIT_USAGE;
  }
  const box = os.hostname();
  const snapshot = o.held !== undefined || o.run !== undefined ? await readThisBox(ctx) : null;
  let request: RuleRequest;
  if (o.held !== undefined) {
    const held = heldRequests(stateHome(ctx.env)).find((r) => r.id === o.held);
    if (!held) {
      say(`no request ${sanitizeLine(o.held)} is held now`);
      return EXIT_FAILURE;
    }
    const input = ruleInputOf(held);
    if (!input) {
      say(`request ${held.id} is never judged by rule: ${held.unreadable ?? 'its input is not whole'}`);
      return EXIT_FAILURE;
    }
    const owner = ownerOf(snapshot!.runs, held, (m) => serverSocket(ctx, m.tmuxServer));
    if (!owner) {
      say(`request ${held.id} is tied to no one member (pane ${held.paneId}): it is the operator's to answer`);
      return EXIT_OK;
    }
    request = { ...input, place: placeOf(owner.run, owner.member, box) };
  } else {
    const input = requestOfJson(o.request!);
    if ('error' in input) {
      say(input.error);
      return EXIT_FAILURE;
    }
    const place = {
      box,
      system: null,
      run: null,
      team: null,
      member: null,
      role: null,
      agent: 'claude-code',
      root: null,
    };
    request = { ...input, place };
    if (o.run !== undefined) {
      const found = resolveRun(snapshot!, o.run);
      if ('error' in found) {
        say(found.error);
        return EXIT_FAILURE;
      }
      const m = found.run.members.find((x) => x.name === o.member) ?? found.run.members.find((x) => x.lead);
      request.place = m
        ? placeOf(found.run, m, box)
        : { ...place, system: found.run.system, run: found.run.id, root: found.run.root };
    }
  }
  const v = judge(loaded.rules, request);
  if (typeof request.input.command === 'string') {
    const parts = commandParts(request.input.command);
    say(
      `command parts: ${parts.parts.map((p) => `"${sanitizeLine(p)}"`).join(', ')}${parts.opaque ? ` (no rule may allow it: ${parts.opaque})` : ''}`,
    );
  }
  const acts = v.acts === 'allow' ? 'allowed' : v.acts === 'deny' ? 'denied' : 'asked as before';
  say(`${acts}${v.rule ? ` by ${sanitizeLine(v.rule.name)}` : ''}: ${sanitizeLine(v.why)}`);
  if (v.wouldBe)
    say(
      `dry run: ${v.wouldBe.decision === 'allow' ? 'would allow' : 'would deny'} by ` +
        `${sanitizeLine(v.wouldBe.rule.name)} (${sanitizeLine(v.wouldBe.why)})`,
    );
  return EXIT_OK;
}
