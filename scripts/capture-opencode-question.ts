/**
 * Captures opencode's question dialog into test/fixtures/opencode-<version>/ from the real CLI (the
 * pinned dev dependency), run as capture-opencode-fixtures.ts runs it, with the stand-in model
 * calling the `question` tool (one question, two options):
 *
 *   node --import tsx scripts/capture-opencode-question.ts
 *
 * Screens: the dialog as plain text and with its escapes. Server: `GET /question` while it waits,
 * what `POST /question/{id}/reply` and `/reject` answer, and the question events of the run
 * (`question.asked`, `question.replied`, `question.rejected`, the sessions' status). The run's temp
 * dir is written `/tmp/tower-opencode-000000` as in the other capture. The tool results the model
 * was sent are printed.
 */
import { lastToolResult } from '../test/helpers/opencode-cli/chat-api.js';
import { isConversation, questionTurn } from '../test/helpers/opencode-cli/scenarios.js';
import { waitFor } from '../test/helpers/wait-for.js';
import { opencodeCapture } from './opencode-capture.js';

const cap = await opencodeCapture([questionTurn('QONE'), questionTurn('QTWO'), questionTurn('QTHREE')]);
const { run, server, write, escaped, get } = cap;
const results = () =>
  run.api.requests.filter((r) => isConversation(r) && lastToolResult(r) !== null).map(lastToolResult);
const idle = () =>
  waitFor(async () => (await get('/session/status')).trim() === '{}', 90_000, {
    what: 'the turn to end',
  });
const listed = async () => JSON.parse(await get('/question')) as Array<{ id: string }>;
try {
  // By a digit on screen.
  await run.submit('please QONE');
  await run.waitForScreen('esc dismiss', 90_000);
  await waitFor(async () => (await listed()).length === 1, 30_000, { what: 'the question listed' });
  write('screens/question.txt', await run.screen());
  write('screens/question.ansi', await escaped());
  write('server/question.json', `${await get('/question')}\n`);
  await run.keys('2');
  await waitFor(() => results().length === 1, 90_000, { what: 'the answer sent to the model' });
  await idle();
  // Through the server, by id.
  await run.submit('please QTWO');
  await waitFor(async () => (await listed()).length === 1, 90_000, { what: 'the second question listed' });
  const [two] = await listed();
  const replied = await fetch(`${server}/question/${two!.id}/reply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answers: [['Red']] }),
  });
  write('server/question-reply.txt', `${replied.status} ${await replied.text()}\n`);
  await waitFor(() => results().length === 2, 90_000, { what: 'the second answer sent to the model' });
  await idle();
  // Dismissed through the server.
  await run.submit('please QTHREE');
  await waitFor(async () => (await listed()).length === 1, 90_000, { what: 'the third question listed' });
  const [three] = await listed();
  const rejected = await fetch(`${server}/question/${three!.id}/reject`, { method: 'POST' });
  write('server/question-reject.txt', `${rejected.status} ${await rejected.text()}\n`);
  await idle();
  await waitFor(async () => !(await run.screen()).includes('esc dismiss'), 30_000, { what: 'the dialog to go' });
  write(
    'server/question-events.sse',
    cap.eventsOf(['session.status', 'session.idle', 'question.asked', 'question.replied', 'question.rejected']),
  );
  console.log('tool results sent to the model:', JSON.stringify(results(), null, 1));
} finally {
  await cap.stop();
}
