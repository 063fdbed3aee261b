// The (rule, node) states one process keeps, changed in place by the transaction that judges them
// (docs/adr/0451). If that transaction rolls back, the states it took are dropped from memory rather than
// put back (docs/adr/0474): the next batch reads them from alert_rule_states and seeds their windows from
// the stored samples, which is exactly what committed. Memory holds only what committed, or what the one
// transaction in flight holding a state is changing.
import type { NodeState } from "../../domain/alert-rules/evaluate.ts";
import type { VerbScope } from "../verb.ts";

/** One transaction's hold on the states it judges: taken before its first await, ended by commit or rollback. */
export class StateBatch {
  readonly #store: RuleStates;
  // Side by side rather than as objects: a steady batch takes thousands of states and allocates no record
  // for each (docs/adr/0474).
  readonly #takenKeys: string[] = [];
  readonly #takenNodes: number[] = [];
  readonly #taken: NodeState[] = [];
  readonly #installs: { key: string; hardwareId: number; state: NodeState }[] = [];
  readonly #evicts: { key: string; hardwareId: number }[] = [];

  constructor(store: RuleStates, s: VerbScope) {
    this.#store = store;
    s.afterCommit(() => this.#commit());
    s.onRollback(() => this.#rollback());
  }

  /**
   * The state held in memory, now held by this batch, which may change it in place; null when memory has
   * none or another transaction in flight holds it: read it from the table.
   */
  take(key: string, hardwareId: number): NodeState | null {
    const state = this.#store.get(key, hardwareId);
    if (!state) return null;
    if (this.#store.held.has(state)) {
      // Judged from what committed instead of another transaction's unfinished changes; dropped from memory
      // after this commit, so the next batch reads the table that both transactions wrote.
      this.#evicts.push({ key, hardwareId });
      return null;
    }
    this.#store.held.add(state);
    this.#takenKeys.push(key);
    this.#takenNodes.push(hardwareId);
    this.#taken.push(state);
    return state;
  }

  /** A state read from the table for this batch: kept in memory after the commit unless another came first. */
  adopt(key: string, hardwareId: number, state: NodeState): void {
    this.#installs.push({ key, hardwareId, state });
  }

  #commit(): void {
    for (const state of this.#taken) this.#store.held.delete(state);
    for (const e of this.#evicts) this.#store.drop(e.key, e.hardwareId);
    for (const i of this.#installs) {
      // Two transactions read the same missing state at once: neither copy has the other's samples.
      if (this.#store.get(i.key, i.hardwareId)) this.#store.drop(i.key, i.hardwareId);
      else if (!this.#evicts.some((e) => e.key === i.key && e.hardwareId === i.hardwareId)) this.#store.set(i.key, i.hardwareId, i.state);
    }
  }

  /** The states this batch changed are not what committed: forgotten, to be read from the table again. */
  #rollback(): void {
    for (let i = 0; i < this.#taken.length; i++) {
      this.#store.held.delete(this.#taken[i]!);
      this.#store.drop(this.#takenKeys[i]!, this.#takenNodes[i]!);
    }
  }
}

/** rule key -> hardware id -> state: a rule's states go at once when the rule does (`prune`). */
export class RuleStates {
  readonly #byRule = new Map<string, Map<number, NodeState>>();
  /** The states a transaction in flight is changing in place. */
  readonly held = new Set<NodeState>();

  get(key: string, hardwareId: number): NodeState | undefined {
    return this.#byRule.get(key)?.get(hardwareId);
  }

  set(key: string, hardwareId: number, state: NodeState): void {
    let states = this.#byRule.get(key);
    if (!states) this.#byRule.set(key, (states = new Map()));
    states.set(hardwareId, state);
  }

  drop(key: string, hardwareId: number): void {
    this.#byRule.get(key)?.delete(hardwareId);
  }

  /** How many states are held in memory (for tests and diagnostics). */
  get size(): number {
    let n = 0;
    for (const states of this.#byRule.values()) n += states.size;
    return n;
  }

  /** Forgets the states of rules no longer live (changed, disabled, deleted). */
  prune(live: ReadonlySet<string>): void {
    for (const key of this.#byRule.keys()) if (!live.has(key)) this.#byRule.delete(key);
  }

  /** Forgets every state: the next batch reads them from the table (as after a restart). */
  clear(): void {
    this.#byRule.clear();
  }

  batch(s: VerbScope): StateBatch {
    return new StateBatch(this, s);
  }
}
