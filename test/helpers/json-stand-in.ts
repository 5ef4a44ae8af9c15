/**
 * The HTTP plumbing every scripted model stand-in shares (Claude Code's Messages API, opencode's chat
 * completions, Gemini's API): a request's JSON body read whole up to a bound (a larger or broken one
 * is an empty object), and a JSON answer.
 */
import http from 'node:http';

/** The most of a request body read; past it the body counts as empty. */
export const MAX_BODY = 32 * 1024 * 1024;

/** Answers `body` as JSON with `status`. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A server that hands each request to `handle` with its JSON body (an object; `{}` when none or unreadable). */
export function jsonServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, body: Record<string, unknown>) => void,
): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = size > 0 && size <= MAX_BODY ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        body = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as typeof body) : {};
      } catch {
        body = {};
      }
      handle(req, res, body);
    });
  });
}
