/**
 * A scripted stand-in for the Gemini API on 127.0.0.1 (an ephemeral port), for running the real
 * Gemini CLI with no network (`GOOGLE_GEMINI_BASE_URL`). `…:streamGenerateContent?alt=sse` answers
 * from a script of turns as server-sent `GenerateContentResponse`s; `…:generateContent` (the CLI's
 * side questions: which model, who speaks next) gets one JSON answer, the JSON a schema asks for
 * when the request names one; `…:countTokens` a count; anything else a 404 the test sees.
 *
 * A streamed request takes the first turn of the script not yet used whose `when` holds; with none
 * left it gets a short text turn, so a CLI asking more than the script says never hangs.
 */
import { jsonServer, sendJson } from '../json-stand-in.js';
import type { AddressInfo } from 'node:net';

/** One part of a model turn: text, or a call of one of the CLI's tools (`run_shell_command`, …). */
export type GeminiPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface GeminiRequest {
  method: string;
  path: string;
  /** `models/<id>:<verb>` split: the model id and the verb. */
  model: string | null;
  verb: string | null;
  /** The conversation the CLI sent (`contents`), untouched. */
  contents: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>;
  tools: string[];
  /** Whether `generationConfig` asks for JSON by a schema. */
  wantsJson: boolean;
}

export interface GeminiTurn {
  when?: (req: GeminiRequest) => boolean;
  parts: GeminiPart[];
  /** `promptTokenCount`; default 1200. */
  promptTokens?: number;
  /** Milliseconds before the answer is sent (a turn that takes a while); default 0. */
  delayMs?: number;
}

export interface GeminiApi {
  /** `http://127.0.0.1:<port>`, for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** Every request so far, in order (bounded: the last 500). */
  requests: GeminiRequest[];
  pending(): number;
  push(...turns: GeminiTurn[]): void;
  close(): Promise<void>;
}

const MAX_SEEN = 500;

/** The text of the last user content that is the user's own words (not a tool's response), or ''. */
export function lastUserText(req: GeminiRequest): string {
  const last = req.contents.findLast((c) => c.role === 'user' && c.parts?.some((p) => typeof p.text === 'string'));
  return (last?.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
}

/** The function response the conversation ends with (the turn after a tool ran or was refused), or null. */
export function lastFunctionResponse(req: GeminiRequest): Record<string, unknown> | null {
  const last = req.contents.at(-1);
  const part = last?.parts?.find((p) => p.functionResponse);
  return (part?.functionResponse as Record<string, unknown> | undefined) ?? null;
}

function response(parts: GeminiPart[], promptTokens: number, finish: boolean): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }],
    usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: 20, totalTokenCount: promptTokens + 20 },
    modelVersion: 'gemini-standin',
    responseId: `standin-${Date.now()}`,
  };
}

/** A JSON answer for the CLI's side questions, holding every field those schemas ask for. */
const SIDE_ANSWER = JSON.stringify({
  reasoning: 'stand-in',
  next_speaker: 'user',
  model_choice: 'flash',
  complexity_reasoning: 'stand-in',
  complexity_score: 1,
});

/** Starts the stand-in with a script of turns. */
export async function startGeminiApi(script: GeminiTurn[] = []): Promise<GeminiApi> {
  const turns = [...script];
  const requests: GeminiRequest[] = [];
  const server = jsonServer((req, res, body) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const m = /models\/([^/:]+):(\w+)$/.exec(path);
    const config = (body.generationConfig ?? {}) as Record<string, unknown>;
    const tools = Array.isArray(body.tools) ? (body.tools as Array<{ functionDeclarations?: unknown[] }>) : [];
    const seen: GeminiRequest = {
      method: req.method ?? 'GET',
      path,
      model: m?.[1] ?? null,
      verb: m?.[2] ?? null,
      contents: Array.isArray(body.contents) ? (body.contents as GeminiRequest['contents']) : [],
      tools: tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => String((f as { name?: unknown }).name))),
      wantsJson: Boolean(config.responseJsonSchema ?? config.responseSchema),
    };
    requests.push(seen);
    if (requests.length > MAX_SEEN) requests.shift();
    if (seen.verb === 'countTokens') return sendJson(res, 200, { totalTokens: 1200 });
    if (seen.verb === 'generateContent') {
      return sendJson(res, 200, response([{ text: seen.wantsJson ? SIDE_ANSWER : 'Done.' }], 1200, true));
    }
    if (seen.verb !== 'streamGenerateContent') {
      return sendJson(res, 404, { error: { code: 404, message: `no ${path} here`, status: 'NOT_FOUND' } });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (seen.wantsJson)
      return res.end(`data: ${JSON.stringify(response([{ text: SIDE_ANSWER }], 1200, true))}\r\n\r\n`);
    const at = turns.findIndex((t) => !t.when || t.when(seen));
    const turn = at >= 0 ? turns.splice(at, 1)[0]! : { parts: [{ text: 'Done.' }] };
    const answer = `data: ${JSON.stringify(response(turn.parts, turn.promptTokens ?? 1200, true))}\r\n\r\n`;
    if ('delayMs' in turn && turn.delayMs) setTimeout(() => res.end(answer), turn.delayMs);
    else res.end(answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pending: () => turns.length,
    push: (...more) => void turns.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
