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
import { pendingPermissions, replyPermission } from './server.js';
import type { Permission, ServerOptions } from './server.js';

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
  const reply = replyOf(choice);
  if (!reply)
    return { ok: false, problem: `opencode's dialog has no option ${sanitizeLine(choice)}: 1 / 2 / 3 or y / n` };
  const listed = await pendingPermissions(port, opts);
  if (!listed.ok) return listed;
  const now = listed.value.pending.find((p) => p.id === m[2]);
  if (!now) return { ok: false, problem: `request ${m[2]} is no longer waiting (answered, or the agent moved on)` };
  if (requestOf(port, now).prompt.signature !== signature)
    return { ok: false, problem: `request ${m[2]} now asks about another input than the one shown` };
  const sent = await replyPermission(port, now.id, reply.reply, opts);
  return sent.ok ? { ok: true, label: reply.label } : sent;
}
