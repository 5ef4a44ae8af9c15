/**
 * Answering a request that an agent CLI's own server shows (opencode's `permission.asked`): through
 * that server, by the request's id, never by keys. The prompt's signature names the server, the
 * request and its input's hash; the answer goes only while the server still lists that request with
 * that very input, and only while the pane still runs the process the port was read from.
 */
import type { AnswerDetail } from '../kit/detail.js';
import { checkEffect, httpEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { refuse } from '../kit/execution.js';
import type { ActionOutcome } from '../kit/types.js';
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';
import type { Member } from '../model/model.js';
import { recheckPane } from './pane-identity.js';
import { promptApproves } from './answer-approves.js';

/** Whether a prompt came from a CLI's server (its signature says so; one read from a screen never does). */
export function fromAgentServer(p: PanePrompt | null | undefined): boolean {
  return p?.signature.startsWith('server:') === true && p.request !== undefined;
}

/** The plan of an answer through the server that asked; by rule, only for the request and input the rule read. */
export function planServerAnswer(
  m: Member,
  who: string,
  detail: AnswerDetail,
  seen: PanePrompt,
  option: PromptOption,
  title: string,
): PlanParts {
  const request = seen.request!;
  if (detail.byRule && (detail.byRule.request !== request.id || detail.byRule.input !== request.whole))
    return refuse(
      `${detail.byRule.rule} decided request ${detail.byRule.request}, but ${who} is asked about ` +
        `another now (${request.id}): nothing answered`,
      title,
      m.paneId,
    );
  detail.expect = seen.signature;
  detail.approves = promptApproves(seen, option);
  const about = `${[...seen.subject, seen.question].join(' · ')} → ${option.key}. ${option.label}`;
  return {
    refusal: null,
    title: `Answer ${option.key} to ${who} (${m.paneId}) through its CLI's server: ${about}`,
    target: m.paneId,
    effects: [
      checkEffect(
        `that ${m.paneId} still runs the same process, and that its server still lists request ` +
          `${request.id} with this very input: nothing is sent otherwise`,
      ),
      httpEffect(
        'POST',
        `<its server>/${request.tool === 'question' ? 'question' : 'permission'}/${request.id}/reply`,
        null,
        `(${option.label})`,
      ),
    ],
    detail,
    destructive: true,
    approves: detail.approves,
  };
}

/** Answers through the CLI's server; refused with nothing sent when the request is not the one shown. */
export async function runServerAnswer(x: Execution, d: AnswerDetail): Promise<ActionOutcome> {
  const { waysFor } = await import('../agents/ways-for.js');
  const server = (await waysFor(d.agent)).server;
  const port = d.expect && server ? server.portOfSignature(d.expect) : null;
  if (!server || port === null || d.expect === null)
    return { status: 'refused', message: `${d.member}'s request is not one its CLI's server can answer: nothing sent` };
  await recheckPane(x.env.ctx, { paneId: d.paneId, server: d.server, process: d.process, who: d.member });
  const answered = await server.answer(port, d.expect, d.choice);
  const by = d.byRule ? `, by ${d.byRule.rule}` : '';
  if (!answered.ok) return { status: 'refused', message: `${d.member}: ${answered.problem}: nothing answered${by}` };
  return {
    status: 'done',
    message: `answered ${d.choice} (${answered.label}) to ${d.member} through its CLI's server${by}`,
    // The server took the request only with the input the plan showed: what the plan said it approves.
    ...(d.approves ? { approved: d.approves } : {}),
  };
}
