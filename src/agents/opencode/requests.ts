/**
 * A permission request from opencode's server as tower shows and answers it: the prompt drawn the
 * way its dialog says it (`# Shell command`, `$ <command>`), whole, every line of the command; the
 * request as rules read it (`Bash` with `{command}`); and a signature naming the server's port, the
 * request's id and a hash of its input, so an answer goes to exactly the request shown.
 */
import { createHash } from 'node:crypto';
import { sanitizeLine } from '../../text/sanitize.js';
import type { AgentPrompt, ServerRequest } from '../types.js';
import { OPTIONS } from './screen.js';
import { OPTION_LABELS } from './keys.js';
import { pendingPermissions, pendingQuestions, replyPermission, replyQuestion } from './server.js';
import type { Permission, QuestionRequest, ServerOptions } from './server.js';

const PREFIX = 'server:opencode';
const SIGNATURE = /^server:opencode:(\d{1,5}):([A-Za-z0-9_-]{1,100}):([0-9a-f]{16})$/;

/** The question tower shows for a request from the server. */
export const SERVER_QUESTION = "Permission required (asked through opencode's server)";

/** The tool and input a request is about: a shell command is `Bash` with its command, others their permission's name. */
function toolOf(p: Permission): { tool: string; input: Record<string, unknown> } {
  const { command: _command, ...rest } = p.metadata ?? {};
  if (p.permission === 'bash' && typeof p.metadata?.command === 'string')
    return { tool: 'Bash', input: { command: p.metadata.command } };
  return { tool: p.permission, input: { patterns: p.patterns ?? [], ...rest } };
}

/** The prompt and the request for one waiting on the server at `port`. */
export function requestOf(port: number, p: Permission): { prompt: AgentPrompt; request: ServerRequest } {
  const { tool, input } = toolOf(p);
  const whole = JSON.stringify(input);
  const hash = createHash('sha256').update(`${tool}\n${whole}`).digest('hex').slice(0, 16);
  const command = typeof input.command === 'string' ? input.command : null;
  // Every line shown, each made printable: the signature binds the answer to the input itself.
  const subject =
    command !== null
      ? ['# Shell command', ...command.split('\n').map((l, i) => `${i === 0 ? '$ ' : '  '}${sanitizeLine(l)}`)]
      : [`# ${sanitizeLine(p.permission)}`, ...(p.patterns ?? []).map((x) => sanitizeLine(x))];
  return {
    prompt: {
      question: SERVER_QUESTION,
      subject,
      options: [...OPTIONS],
      signature: `${PREFIX}:${port}:${p.id}:${hash}`,
      request: { id: p.id, tool, whole },
    },
    request: { id: p.id, tool, input, whole },
  };
}

/** The tool a question request is shown as (never a rule's: its input is a list, rules judge an object). */
export const QUESTION_TOOL = 'question';

/**
 * The prompt and the request for a question of opencode's question tool: its question, each option
 * numbered as its dialog numbers them with what it means, and a signature binding an answer to
 * these very questions. Only one question with one choice is answered by tower; several, or one
 * taking several choices, or an option named like the permission dialog's, are shown with no
 * option (answered in the agent's own pane).
 */
export function questionOf(port: number, q: QuestionRequest): { prompt: AgentPrompt; request: ServerRequest } {
  const whole = JSON.stringify(q.questions);
  const hash = createHash('sha256').update(`${QUESTION_TOOL}\n${whole}`).digest('hex').slice(0, 16);
  const first = q.questions[0];
  const answerable =
    q.questions.length === 1 &&
    first !== undefined &&
    first.multiple !== true &&
    first.options.length > 0 &&
    first.options.length <= 9 &&
    !first.options.some((o) => (OPTION_LABELS as readonly string[]).includes(o.label));
  const subject = q.questions.flatMap((x, n) => [
    ...(q.questions.length > 1 ? [`# ${n + 1}. ${sanitizeLine(x.question)}`] : []),
    ...x.options.map(
      (o, i) => `${i + 1}. ${sanitizeLine(o.label)}${o.description ? ` (${sanitizeLine(o.description)})` : ''}`,
    ),
  ]);
  const question =
    q.questions.length === 1 && first
      ? sanitizeLine(first.question)
      : `${q.questions.length} questions (answer them in its pane)`;
  return {
    prompt: {
      question,
      subject,
      options: answerable ? first.options.map((o, i) => ({ key: String(i + 1), label: sanitizeLine(o.label) })) : [],
      signature: `${PREFIX}:${port}:${q.id}:${hash}`,
      request: { id: q.id, tool: QUESTION_TOOL, whole },
    },
    request: { id: q.id, tool: QUESTION_TOOL, input: { questions: q.questions }, whole },
  };
}

/** The port a signature names, or null when it is not one of a server's requests. */
export function portOfSignature(signature: string): number | null {
  const m = SIGNATURE.exec(signature);
  return m ? Number(m[1]) : null;
}

/** What `tower answer`'s choice is as the server's reply. */
function replyOf(choice: string): { reply: 'once' | 'always' | 'reject'; label: string } | null {
  const c = choice.toLowerCase();
  if (c === '1' || c === 'y') return { reply: 'once', label: 'Allow once' };
  if (c === '2') return { reply: 'always', label: 'Allow always' };
  if (c === '3' || c === 'n') return { reply: 'reject', label: 'Reject' };
  return null;
}

/**
 * Answers the request `signature` names, only while the server lists it with the very input shown
 * (the same id, the same command); nothing is sent otherwise.
 */
export async function answerBySignature(
  port: number,
  signature: string,
  choice: string,
  opts: ServerOptions = {},
): Promise<{ ok: true; label: string } | { ok: false; problem: string }> {
  const m = SIGNATURE.exec(signature);
  if (!m || Number(m[1]) !== port) return { ok: false, problem: "not a request of this opencode's server" };
  const listed = await pendingPermissions(port, opts);
  if (!listed.ok) return listed;
  const now = listed.value.pending.find((p) => p.id === m[2]);
  if (!now) return answerQuestion(port, m[2]!, signature, choice, opts);
  if (requestOf(port, now).prompt.signature !== signature)
    return { ok: false, problem: `request ${m[2]} now asks about another input than the one shown` };
  const reply = replyOf(choice);
  if (!reply)
    return { ok: false, problem: `opencode's dialog has no option ${sanitizeLine(choice)}: 1 / 2 / 3 or y / n` };
  const sent = await replyPermission(port, now.id, reply.reply, opts);
  return sent.ok ? { ok: true, label: reply.label } : sent;
}

/** Answers the question `signature` names with the option numbered `choice`, only while the server lists it as shown. */
async function answerQuestion(
  port: number,
  id: string,
  signature: string,
  choice: string,
  opts: ServerOptions,
): Promise<{ ok: true; label: string } | { ok: false; problem: string }> {
  const listed = await pendingQuestions(port, opts);
  if (!listed.ok) return listed;
  const now = listed.value.pending.find((q) => q.id === id);
  if (!now) return { ok: false, problem: `request ${id} is no longer waiting (answered, or the agent moved on)` };
  const shown = questionOf(port, now).prompt;
  if (shown.signature !== signature)
    return { ok: false, problem: `request ${id} now asks another question than the one shown` };
  if (shown.options.length === 0)
    return {
      ok: false,
      problem: 'its question is not one tower answers (several, or several choices): answer it in its pane',
    };
  const option = shown.options.find((o) => o.key === choice);
  if (!option)
    return { ok: false, problem: `the question has no option ${sanitizeLine(choice)}: 1 to ${shown.options.length}` };
  // The label exactly as the server gave it (the shown one is made printable).
  const label = now.questions[0]!.options[Number(choice) - 1]!.label;
  const sent = await replyQuestion(port, id, [label], opts);
  return sent.ok ? { ok: true, label: option.label } : sent;
}
