/**
 * Which boxes a command looks at: this one alone (the plain local pipeline, untouched), or this one
 * beside the configured and --host hosts (a composite of the local store and one link per host).
 */
import { attachToPane, planAction, runAction } from '../actions/index.js';
import type { TerminalHandOver } from '../actions/attach.js';
import type { ActionEnv } from '../kit/types.js';
import type { AppContext } from '../context/context.js';
import type { Snapshot } from '../model/model.js';
import { createLiveStore } from '../store/live-store.js';
import { readThisBox } from '../store/this-box.js';
import type { SnapshotStore } from '../store/types.js';
import { boxActions } from './actions.js';
import type { BoxActions } from './actions.js';
import { CompositeStore } from './composite-store.js';
import { BoxPaneLooks } from './box-looks.js';
import type { PaneLooks } from '../store/captures.js';
import { usesHosts } from '../config/hosts.js';
import { defaultConfigPath } from '../config/config.js';
import { rulesFilePath } from '../rules/file-path.js';

export { usesHosts };
export { countDecision, decisionRow, followBoxDecisions } from './box-rule-rows.js';

/** How a one-shot command reads this box. */
export interface ReadOptions {
  /** One capture round of every member pane, for each member's activity (`tower status`). */
  activity?: boolean;
}

/** This box's snapshot read once, as a store (for one-shot commands beside hosts). */
export function oneShotStore(ctx: AppContext, opts: ReadOptions = {}): SnapshotStore {
  let snapshot: Snapshot = { version: 1, generatedAt: new Date().toISOString(), runs: [], problems: [] };
  const listeners = new Set<() => void>();
  return {
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getSnapshot: () => snapshot,
    async start() {
      snapshot = await readThisBox(ctx, opts);
      for (const l of listeners) l();
    },
    async stop() {},
    refresh() {},
  };
}

/** This tower's rules file (the config's `rulesFile`, else rules.json beside the config), sent to hosts that take it. */
function rulesFileOf(ctx: AppContext): string {
  return rulesFilePath(ctx.configFile ?? defaultConfigPath(ctx.env), ctx.config.rulesFile);
}

/** The live store of the control room: the local one alone, or every box. */
export function createBoxesStore(ctx: AppContext, local: SnapshotStore = createLiveStore(ctx)): SnapshotStore {
  if (!usesHosts(ctx)) return local;
  return new CompositeStore({
    hosts: ctx.hosts,
    local: ctx.local ? local : null,
    timeoutSec: ctx.config.hostTimeoutSec,
    reconnect: true,
    rulesFile: rulesFileOf(ctx),
  });
}

/** The preview's panes over a store made by createBoxesStore: another box's pane is what it streams. */
export function looksFor(local: PaneLooks, store: SnapshotStore): PaneLooks {
  return store instanceof CompositeStore ? new BoxPaneLooks(local, store) : local;
}

/** The actions over a store made by createBoxesStore. */
export function actionsFor(env: ActionEnv, store: SnapshotStore, io: TerminalHandOver): BoxActions {
  if (store instanceof CompositeStore) return boxActions(env, store, io);
  return {
    plan: (req) => planAction(env, req),
    run: (plan, hooks) => runAction(env, plan, hooks),
    attach: (paneId) => attachToPane(env, paneId, io),
  };
}

/** What a one-shot command works with: one snapshot of every box, and actions on it. */
export interface OpenBoxes {
  snapshot: Snapshot;
  actions: BoxActions;
  close(): Promise<void>;
}

const NO_SCREEN: TerminalHandOver = { suspend: () => {}, resume: () => {} };

/** Reads every box once (hosts in parallel, each with its own timeout) and keeps the links open until close(). */
export async function openBoxes(ctx: AppContext, opts: ReadOptions = {}): Promise<OpenBoxes> {
  if (!usesHosts(ctx)) {
    const snapshot = await readThisBox(ctx, opts);
    const env: ActionEnv = { ctx, snapshot: () => snapshot };
    return { snapshot, actions: actionsFor(env, oneShotStore(ctx), NO_SCREEN), close: async () => {} };
  }
  const store = new CompositeStore({
    hosts: ctx.hosts,
    local: ctx.local ? oneShotStore(ctx, opts) : null,
    timeoutSec: ctx.config.hostTimeoutSec,
    reconnect: false,
    rulesFile: rulesFileOf(ctx),
  });
  try {
    await store.start();
  } catch (err) {
    await store.stop();
    throw err;
  }
  const env: ActionEnv = { ctx, snapshot: () => store.getSnapshot() };
  return { snapshot: store.getSnapshot(), actions: boxActions(env, store, NO_SCREEN), close: () => store.stop() };
}
