/**
 * Asks the background app server a Codex CLI shares on its CODEX_HOME for its threads, over its
 * control socket (`<CODEX_HOME>/app-server-control/app-server-control.sock`, a WebSocket on a unix
 * socket): `initialize`, then `thread/list`. For tests and the fixture capture.
 */
import path from 'node:path';
import WebSocket from 'ws';

/** The control socket of a CODEX_HOME. */
export function controlSocket(codexHome: string): string {
  return path.join(codexHome, 'app-server-control', 'app-server-control.sock');
}

/** The raw `thread/list` result. */
export function threadList(codexHome: string, timeoutMs = 5000): Promise<{ data: Array<Record<string, unknown>> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws+unix://${controlSocket(codexHome)}:/`);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('thread/list: no answer'));
    }, timeoutMs);
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          id: 1,
          method: 'initialize',
          params: { clientInfo: { name: 'tower-test', title: null, version: '0' } },
        }),
      ),
    );
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { id?: number; result?: unknown };
      if (m.id === 1) {
        ws.send(JSON.stringify({ method: 'initialized' }));
        ws.send(JSON.stringify({ id: 2, method: 'thread/list', params: {} }));
      }
      if (m.id === 2) {
        clearTimeout(timer);
        ws.close();
        resolve(m.result as { data: Array<Record<string, unknown>> });
      }
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
