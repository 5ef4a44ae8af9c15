/**
 * Rules following a live store: each time the snapshot changes, and once a second besides (a new
 * held request need not change the snapshot), the held requests are looked at and those a rule
 * decides are answered. Only this box's: another box's requests are answered by its own tower.
 */
import type { AppContext } from '../context/context.js';
import { defaultConfigPath } from '../config/config.js';
import type { ActionEnv } from '../kit/types.js';
import type { Snapshot } from '../model/model.js';
import { RulesSource } from '../rules/load.js';
import { rulesFilePath } from '../rules/file-path.js';
import type { LoadedRules } from '../rules/load.js';
import { RuleAnswerer } from './rule-answer.js';
import type { RuleRecord } from './rule-answer.js';

export { tallyWords } from './rule-answer.js';

/** How often held requests are looked at when the snapshot does not change. */
const LOOK_MS = 1000;

/** The rules file tower reads: the config's `rulesFile`, else rules.json beside the config. */
export function rulesFileOf(ctx: AppContext): string {
  return rulesFilePath(ctx.configFile ?? defaultConfigPath(ctx.env), ctx.config.rulesFile);
}

/** A store's change feed. */
interface Changes {
  subscribe(listener: () => void): () => void;
}

/** Rules answering this box's held requests while `store` runs; `stop` ends it (a look under way finishes). */
export function followRules(
  env: ActionEnv,
  store: Changes,
  onRecord: (r: RuleRecord) => void,
  opts: {
    file?: string;
    /** Where the rules come from instead of a file (a served box: the operator's, or its own). */
    source?: { current(): LoadedRules };
    onProblem?: (problem: string | null) => void;
  } = {},
): { answerer: RuleAnswerer; source: { current(): LoadedRules }; stop: () => Promise<void> } {
  const source = opts.source ?? new RulesSource(opts.file ?? rulesFileOf(env.ctx));
  let said: string | null = null;
  // A file refused or broken is said once when it becomes so, and once when it is fine again.
  const rules = () => {
    const loaded = source.current();
    if (loaded.problem !== said) opts.onProblem?.((said = loaded.problem));
    return loaded;
  };
  const answerer = new RuleAnswerer(env, rules, onRecord);
  // A read-only tower answers nothing, by rule or not.
  if (env.ctx.readonly) return { answerer, source, stop: async () => {} };
  const look = () => void answerer.look();
  // A change that leaves the snapshot as it was (a previewed pane printing more, up to ten times a
  // second) brings no request: the timer's look finds what does not change the snapshot.
  let lookedAt: Snapshot | null = null;
  const unsubscribe = store.subscribe(() => {
    const now = env.snapshot();
    if (now === lookedAt) return;
    lookedAt = now;
    look();
  });
  const timer = setInterval(look, LOOK_MS);
  timer.unref();
  return {
    answerer,
    source,
    stop: async () => {
      unsubscribe();
      clearInterval(timer);
      await answerer.settled();
    },
  };
}
