/**
 * Whose rules answer a served box's held requests. The other side decides, by its host's `rules`
 * setting: its `use` names the rules feature, then a `rules` message brings the operator's rules
 * (text, or null for none) or asks for the box's own file. Until it has said, no request is
 * answered by rule here: neither set answers in the operator's stead before the choice is known.
 * A tower that says nothing in time (an older one, which never asks) leaves the box's own rules.
 * The operator's rules arrive over ssh: parsed as untrusted input (bounds, JSON, the schema).
 */
import type { LoadedRules } from '../rules/load.js';
import { parseSentRules } from '../rules/load.js';
import { RULES } from './protocol.js';
import type { RulesState } from './protocol.js';

/** How long the box waits for the other side's word before its own rules answer (an older tower never sends it). */
export const RULES_WAIT_MS = 10_000;

type Choice = { whose: 'pending' } | { whose: 'box' } | { whose: 'yours'; loaded: LoadedRules };

/** The rules in force on a served box, and what it says about them to the other side. */
export class ServeRules {
  private choice: Choice = { whose: 'pending' };
  /** Whether the other side asked to be told whose rules answer (a tower that knows the feature). */
  private telling = false;
  private said = '';
  private readonly timer: NodeJS.Timeout;

  constructor(
    /** The box's own rules as they are now (its config's rules file). */
    private readonly own: () => LoadedRules,
    private readonly send: (msg: RulesState) => void,
    waitMs = RULES_WAIT_MS,
  ) {
    this.timer = setTimeout(() => this.settle(), waitMs);
    this.timer.unref();
  }

  /** The rules answering now: none while the other side has not said whose. */
  current(): LoadedRules {
    const c = this.choice;
    const loaded =
      c.whose === 'pending'
        ? { file: 'no rules yet', rules: [], problem: null }
        : c.whose === 'box'
          ? this.own()
          : c.loaded;
    if (c.whose !== 'pending') this.tell(c.whose, loaded);
    return loaded;
  }

  /** The other side's `use`: naming the rules feature, it says whose next; else the box's own answer. */
  used(features: readonly string[]): void {
    if (features.includes(RULES)) this.telling = true;
    else this.settle();
  }

  /** A `rules` message: the operator's rules (`text`, null for none), or no text for the box's own. */
  received(msg: { text?: unknown }): void {
    clearTimeout(this.timer);
    this.choice = msg.text === undefined ? { whose: 'box' } : { whose: 'yours', loaded: parseSentRules(msg.text) };
    this.current();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** No word (yet) from the other side: the box's own rules. */
  private settle(): void {
    clearTimeout(this.timer);
    if (this.choice.whose === 'pending') this.choice = { whose: 'box' };
  }

  /** Says whose rules answer, when it changed, to a side that asked. */
  private tell(whose: 'yours' | 'box', loaded: LoadedRules): void {
    if (!this.telling) return;
    const msg: RulesState = { type: 'rules', whose, count: loaded.rules.length, problem: loaded.problem };
    const key = JSON.stringify(msg);
    if (key === this.said) return;
    this.said = key;
    this.send(msg);
  }
}
