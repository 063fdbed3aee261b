// The alert rules' (rule, node) states changed in place (shared/verbs/alert-rules/rule-states.ts,
// docs/adr/0451): a rolled-back batch puts back exactly what it changed, window drops included; a state
// held by one transaction in flight is not shared with another; a state read from the table is kept only
// after the commit.
import { describe, expect, it } from "vitest";
import { freshState, type NodeState, type RuleCondition, restore, step, undoOf } from "../../shared/domain/alert-rules/evaluate.ts";
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
const clone = (s: NodeState): NodeState => structuredClone(s);

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

describe("undo of a state changed in place", () => {
  it("restores scalars and the window, whatever the steps pushed and dropped", () => {
    const rule = avg();
    for (let seed = 1; seed <= 40; seed++) {
      const s = freshState();
      let t = 0;
      let x = seed;
      const next = () => {
        x = (x * 1103515245 + 12345) % 2147483648;
        return x;
      };
      for (let i = 0; i < (next() % 8) + 1; i++) step(rule, s, (t += 10_000 + (next() % 40_000)), next() % 100);
      const before = clone(s);
      const u = undoOf(s);
      for (let i = 0; i < (next() % 12) + 1; i++) step(rule, s, (t += 5_000 + (next() % 60_000)), next() % 100, u);
      restore(u);
      expect(s).toEqual(before);
    }
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

  it("a batch changes the held state in place; its rollback puts it back and releases it", () => {
    const store = new RuleStates();
    const state = seeded();
    store.set(key, 7, state);
    const before = clone(state);
    const tx = fakeScope();
    const u = store.batch(tx.scope).take(key, 7)!;
    expect(u.target).toBe(state);
    for (const [ts, v] of [
      [60_000, 100],
      [90_000, 100],
      [120_000, 100],
    ] as const)
      step(avg(), state, ts, v, u);
    expect(state.state).toBe("firing");
    tx.rollback();
    expect(store.get(key, 7)).toBe(state);
    expect(state).toEqual(before);
    expect(store.held.size).toBe(0);
  });

  it("a commit keeps the changes and releases the state for the next batch", () => {
    const store = new RuleStates();
    store.set(key, 7, seeded());
    const tx = fakeScope();
    const u = store.batch(tx.scope).take(key, 7)!;
    step(avg(), u.target, 60_000, 30, u);
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
