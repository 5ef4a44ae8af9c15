/**
 * Whether opencode's server says a pane waits for an answer, asked once right before a line is
 * typed into it (the guard before typing): the server the pane's process serves (`--port N`), its
 * lists of permission requests and of its question tool's questions, each read bounded in time.
 * The server is the pane's own process: whatever it holds waits on this pane. A pane with no server,
 * or one that does not answer, leaves the screen to decide.
 */
import { sanitizeLine } from '../../text/sanitize.js';
import type { PaneAtTyping } from '../types.js';
import { readPassword, type PasswordRead } from './password.js';
import { pendingPermissions, pendingQuestions, portOf, type ServerOptions } from './server.js';

/** How long the guard waits for each of the server's lists. */
export const GUARD_LIST_MS = 1500;

/** Why the pane's opencode server says it waits for a permission or a question, naming it; or null. */
export async function opencodeWaitsForPermission(
  pane: Pick<PaneAtTyping, 'argv'>,
  passwords: () => PasswordRead = readPassword,
): Promise<string | null> {
  let port: number | null = null;
  for (const argv of pane.argv) if ((port = portOf(argv)) !== null) break;
  if (port === null) return null;
  const given = passwords();
  const opts: ServerOptions = { timeoutMs: GUARD_LIST_MS, ...(given.password ? { password: given.password } : {}) };
  const [permissions, questions] = await Promise.all([pendingPermissions(port, opts), pendingQuestions(port, opts)]);
  const permission = permissions.ok ? permissions.value.pending[0] : undefined;
  if (permission)
    return (
      `opencode's server on port ${port} holds a permission request from it ` +
      `(${sanitizeLine(permission.id)}, ${sanitizeLine(permission.permission)}, session ${sanitizeLine(permission.sessionID)})`
    );
  const question = questions.ok ? questions.value.pending[0] : undefined;
  if (question)
    return (
      `opencode's server on port ${port} holds a question from it ` +
      `(${sanitizeLine(question.id)}, session ${sanitizeLine(question.sessionID)}: ${sanitizeLine(question.questions[0]?.question ?? '')})`
    );
  return null;
}
