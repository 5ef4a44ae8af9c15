/**
 * `tower serve --stdio`: the far side of a remote host. Runs the store the control room runs (files,
 * pane captures, hook events: each member's activity, prompt and context) and writes
 * the protocol to stdout (hello, one full snapshot, then changes); reads requests from stdin and
 * runs actions here, with this box's plan, audit log and tmux server. Ends when stdin closes (the
 * ssh connection went away).
 */
import os from 'node:os';
import { planAction, runAction } from '../actions/index.js';
import type { ActionEnv, ActionRequest } from '../kit/types.js';
import type { AppContext } from '../context/context.js';
import type { Snapshot } from '../model/model.js';
import { createWatchedStore } from '../store/live-activity.js';
import type { SnapshotStore } from '../store/types.js';
import { socketArgs } from '../tmux/client.js';
import type { ClientMessage, ServerMessage } from './protocol.js';
import { lineSplitter } from './lines.js';
import type { LocalPaneLooks } from '../store/preview-stream.js';
import { SERVED_PREVIEW_MS } from '../store/preview-stream.js';
import { PaneServer } from './pane-serve.js';
import { defaultConfigPath } from '../config/config.js';
import { RulesSource } from '../rules/load.js';
import { rulesFilePath } from '../rules/file-path.js';
import { ServeRules } from './serve-rules.js';
import { ServeDecisions } from './serve-decisions.js';
import {
  ACTIVITY,
  ORDER_WHEN_MOVED,
  PANE_PREVIEW,
  PROTOCOL_VERSION,
  RULES,
  RULE_DECISIONS,
  decodeLine,
  diffSnapshots,
  encode,
} from './protocol.js';

/** The tower version this build reports in its hello. */
export const TOWER_VERSION = '0.1.0';

export interface ServeIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** Serves until the input ends; resolves to the exit code. */
export async function serveStdio(
  ctx: AppContext,
  io: ServeIo = { input: process.stdin, output: process.stdout },
  watched: { store: SnapshotStore; watch?: LocalPaneLooks | undefined } = createWatchedStore(
    ctx,
    {},
    SERVED_PREVIEW_MS,
  ),
): Promise<number> {
  const store = watched.store;
  let closed = false;
  const send = (msg: ServerMessage): void => {
    if (!closed) io.output.write(encode(msg));
  };
  io.output.on('error', () => {
    closed = true;
  });
  send({
    type: 'hello',
    protocol: PROTOCOL_VERSION,
    tower: TOWER_VERSION,
    hostname: os.hostname(),
    tmux: socketArgs(ctx.tmux.socket),
    features: [ORDER_WHEN_MOVED, ACTIVITY, ...(watched.watch ? [PANE_PREVIEW] : []), RULES, RULE_DECISIONS],
  });

  const panes = watched.watch ? new PaneServer(watched.watch, send) : null;
  // Whose rules answer here: the other side says (its host's `rules` setting); an older one, the box's own.
  const own = new RulesSource(rulesFilePath(ctx.configFile ?? defaultConfigPath(ctx.env), ctx.config.rulesFile));
  const serveRules = new ServeRules(() => own.current(), send);
  // Each decision the rules make here is told to the other side (one that asks), for its screen.
  const decisions = new ServeDecisions(send);
  const requests = new RequestHandler(ctx, store, send, panes, serveRules, decisions);
  const using = requests.using;
  const ended = new Promise<void>((resolve) => {
    io.input.on(
      'data',
      lineSplitter((line) => requests.handle(line)),
    );
    io.input.on('end', resolve);
    io.input.on('close', resolve);
    io.input.on('error', resolve);
  });

  let last: Snapshot | null = null;
  const publish = (): void => {
    const next = store.getSnapshot();
    if (next === last) return;
    send(last ? diffSnapshots(last, next, using.has(ORDER_WHEN_MOVED)) : { type: 'snapshot', snapshot: next });
    last = next;
  };
  const unsubscribe = store.subscribe(() => {
    if (last) publish();
  });
  // The rules answer this box's held requests as its own tower would: the box's own, or the operator's sent.
  let rules: { stop(): Promise<void> } | null = null;
  try {
    await store.start();
    publish();
    const { followRules } = await import('../actions/rule-follow.js');
    if (!closed)
      rules = followRules({ ctx, snapshot: () => store.getSnapshot() }, store, (r) => decisions.record(r), {
        source: serveRules,
      });
  } catch (err) {
    send({
      type: 'error',
      id: null,
      message: `reading state failed: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  await ended;
  closed = true;
  unsubscribe();
  panes?.dispose();
  requests.cancelAll();
  serveRules.stop();
  await rules?.stop().catch(() => {});
  await store.stop().catch(() => {});
  return 0;
}

/** Plans and runs the requests of the other side, one outcome each. */
class RequestHandler {
  private readonly running = new Map<number, AbortController>();
  private readonly offers = new Map<number, (names: string[]) => void>();
  /** The features the other side turned on (of those offered in the hello). */
  readonly using = new Set<string>();

  constructor(
    private readonly ctx: AppContext,
    private readonly store: SnapshotStore,
    private readonly send: (msg: ServerMessage) => void,
    private readonly panes: PaneServer | null,
    private readonly rules: ServeRules,
    private readonly decisions: ServeDecisions,
  ) {}

  handle(line: string): void {
    const msg = decodeLine(line) as ClientMessage | null;
    if (!msg) return;
    switch (msg.type) {
      case 'plan':
        this.send({ type: 'plan', id: msg.id, plan: planAction(this.env(msg.dryRun), msg.request) });
        return;
      case 'run':
        void this.run(msg.id, msg.request, Boolean(msg.dryRun));
        return;
      case 'cancel':
        this.running.get(msg.id)?.abort();
        return;
      case 'answer-offer':
        this.offers.get(msg.id)?.(Array.isArray(msg.names) ? msg.names.filter((n) => typeof n === 'string') : []);
        this.offers.delete(msg.id);
        return;
      case 'refresh':
        this.store.refresh(msg.runId);
        return;
      case 'preview': {
        const why = this.panes ? this.panes.request(msg.pane, msg.server, msg.run) : 'this tower does not stream panes';
        if (why) this.send({ type: 'error', id: null, message: why });
        return;
      }
      case 'use': {
        const features = Array.isArray(msg.features) ? msg.features.filter((f) => typeof f === 'string') : [];
        if (features.includes(ORDER_WHEN_MOVED)) this.using.add(ORDER_WHEN_MOVED);
        this.rules.used(features);
        this.decisions.used(features);
        return;
      }
      case 'rules':
        this.rules.received(msg);
        return;
      default:
        this.send({ type: 'error', id: null, message: `unknown request "${String((msg as { type: string }).type)}"` });
    }
  }

  cancelAll(): void {
    for (const a of this.running.values()) a.abort();
    for (const resolve of this.offers.values()) resolve([]);
  }

  private env(dryRun = false): ActionEnv {
    return { ctx: { ...this.ctx, dryRun: dryRun || this.ctx.dryRun }, snapshot: () => this.store.getSnapshot() };
  }

  private async run(id: number, request: ActionRequest, dryRun: boolean): Promise<void> {
    const abort = new AbortController();
    this.running.set(id, abort);
    const env = this.env(dryRun);
    try {
      // Planned again here, against this box's state at this moment, exactly as a local action is.
      const outcome = await runAction(env, planAction(env, request), {
        signal: abort.signal,
        onProgress: (progress) => this.send({ type: 'progress', id, progress }),
        offerTerminate: (alive) =>
          new Promise<string[]>((resolve) => {
            this.offers.set(id, resolve);
            this.send({ type: 'offer', id, alive });
          }),
      });
      this.send({ type: 'outcome', id, outcome });
    } catch (err) {
      this.send({
        type: 'outcome',
        id,
        outcome: { status: 'failed', message: err instanceof Error ? err.message : String(err) },
      });
    } finally {
      this.running.delete(id);
      this.offers.delete(id);
    }
  }
}
