// The alert rules' (rule, node) states changed in place (shared/verbs/alert-rules/rule-states.ts,
// docs/adr/0451, 0474): a rolled-back batch forgets the states it changed (the next batch reads them from
// the table); a state held by one transaction in flight is not shared with another; a state read from the
// table is kept only after the commit.
import { describe, expect, it } from "vitest";
import { freshState, percentile, type RuleCondition, step } from "../../shared/domain/alert-rules/evaluate.ts";
import { RuleStates } from "../../shared/verbs/alert-rules/rule-states.ts";
import type { VerbScope } from "../../shared/verbs/verb.ts";

const avg = (over: Partial<RuleCondition> = {}): RuleCondition => ({
  operator: ">",
  threshold: 50,
  clear_threshold: 40,
  aggregation: "avg",
  window_secs: 90,
  for_secs: 30,
  ...over,
});

/** A transaction's hooks, ended by hand. */
function fakeScope() {
  const committed: (() => void)[] = [];
  const undo: (() => void)[] = [];
  const scope = { afterCommit: (f: () => void) => committed.push(f), onRollback: (f: () => void) => undo.push(f) } as unknown as VerbScope;
  return {
    scope,
    commit: () => {
      for (const f of committed) f();
    },
    rollback: () => {
      for (const f of undo.reverse()) f();
    },
  };
}

describe("percentile", () => {
  it("interpolates between closest ranks, whatever the order, and leaves the values as they were", () => {
    const values = [40, 10, 30, 20];
    expect(percentile(values, 50)).toBe(25);
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(40);
    expect(percentile(values, 95)).toBeCloseTo(38.5, 10);
    expect(values).toEqual([40, 10, 30, 20]);
    expect(percentile([7], 99)).toBe(7);
  });
});

describe("RuleStates", () => {
  const key = "1@x";
  const seeded = () => {
    const s = freshState();
    step(avg(), s, 0, 10);
    step(avg(), s, 30_000, 20);
    return s;
  };

  it("a batch changes the held state in place; its rollback forgets it, so the next batch reads the table", () => {
    const store = new RuleStates();
    const state = seeded();
    store.set(key, 7, state);
    const tx = fakeScope();
    const taken = store.batch(tx.scope).take(key, 7)!;
    expect(taken).toBe(state);
    for (const [ts, v] of [
      [60_000, 100],
      [90_000, 100],
      [120_000, 100],
    ] as const)
      step(avg(), taken, ts, v);
    expect(state.state).toBe("firing");
    tx.rollback();
    expect(store.get(key, 7)).toBeUndefined();
    expect(store.held.size).toBe(0);
    expect(store.batch(fakeScope().scope).take(key, 7)).toBeNull();
  });

  it("a commit keeps the changes and releases the state for the next batch", () => {
    const store = new RuleStates();
    store.set(key, 7, seeded());
    const tx = fakeScope();
    const taken = store.batch(tx.scope).take(key, 7)!;
    step(avg(), taken, 60_000, 30);
    tx.commit();
    expect(store.get(key, 7)!.window_v).toEqual([10, 20, 30]);
    expect(store.batch(fakeScope().scope).take(key, 7)).not.toBeNull();
  });

  it("a state held by a transaction in flight is not given to another, which drops it from memory after its commit", () => {
    const store = new RuleStates();
    store.set(key, 7, seeded());
    const first = fakeScope();
    const second = fakeScope();
    expect(store.batch(first.scope).take(key, 7)).not.toBeNull();
    const b = store.batch(second.scope);
    expect(b.take(key, 7)).toBeNull();
    // The second read it from the table (adopt); its commit must not keep either copy.
    b.adopt(key, 7, freshState());
    second.commit();
    first.commit();
    expect(store.get(key, 7)).toBeUndefined();
  });

  it("a state read from the table is kept after the commit, not after a rollback; two such reads keep neither", () => {
    const store = new RuleStates();
    const rolled = fakeScope();
    store.batch(rolled.scope).adopt(key, 1, freshState());
    rolled.rollback();
    expect(store.get(key, 1)).toBeUndefined();

    const kept = fakeScope();
    const mine = freshState();
    store.batch(kept.scope).adopt(key, 1, mine);
    kept.commit();
    expect(store.get(key, 1)).toBe(mine);

    const a = fakeScope();
    const b = fakeScope();
    store.batch(a.scope).adopt(key, 2, freshState());
    store.batch(b.scope).adopt(key, 2, freshState());
    a.commit();
    b.commit();
    expect(store.get(key, 2)).toBeUndefined();
  });

  it("prune forgets the states of rules no longer live", () => {
    const store = new RuleStates();
    store.set("1@a", 1, freshState());
    store.set("2@b", 1, freshState());
    store.prune(new Set(["2@b"]));
    expect(store.get("1@a", 1)).toBeUndefined();
    expect(store.size).toBe(1);
  });
});
