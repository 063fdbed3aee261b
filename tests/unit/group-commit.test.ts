// The group committer (shared/group-commit.ts, docs/adr/0453): items arriving together share a commit,
// each settled after its own commit; in parallel mode several commits are in flight at once, never two
// holding items of the same key; a failed commit rejects only its own items. Commits are held open by
// promises the test releases, so nothing depends on timing.
import { describe, expect, it } from "vitest";
import { GroupCommitter } from "../../shared/group-commit.ts";

interface Item {
  key: string;
  n: number;
}

/** A commit function whose calls stay open until the test releases them. */
function heldCommits() {
  const calls: { items: Item[]; release(fail?: Error): void }[] = [];
  const commit = (items: Item[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({ items, release: (fail) => (fail ? reject(fail) : resolve(items.map((i) => `${i.key}${i.n}`))) });
    });
  return { calls, commit };
}

/** Lets queued microtasks and settled promises run (bounded). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe("GroupCommitter", () => {
  it("one commit at a time by default: items arriving meanwhile share the next one, up to maxBatch", async () => {
    const { calls, commit } = heldCommits();
    const g = new GroupCommitter<Item, string>(commit, { maxBatch: 2 });
    const a = g.submit({ key: "a", n: 1 });
    await settle();
    const rest = [g.submit({ key: "b", n: 1 }), g.submit({ key: "c", n: 1 }), g.submit({ key: "d", n: 1 })];
    await settle();
    expect(calls.map((c) => c.items.length)).toEqual([1]);
    calls[0]!.release();
    expect(await a).toBe("a1");
    await settle();
    expect(calls.map((c) => c.items.map((i) => i.key))).toEqual([["a"], ["b", "c"]]);
    calls[1]!.release();
    await settle();
    calls[2]!.release();
    expect(await Promise.all(rest)).toEqual(["b1", "c1", "d1"]);
    expect(calls.map((c) => c.items.map((i) => i.key))).toEqual([["a"], ["b", "c"], ["d"]]);
  });

  it("in parallel mode up to `parallel` commits are in flight, and never two with the same key", async () => {
    const { calls, commit } = heldCommits();
    const g = new GroupCommitter<Item, string>(commit, { parallel: 3, keyOf: (i) => i.key });
    const first = g.submit({ key: "a", n: 1 });
    await settle();
    // While a's commit is open: another a must wait; b and c go in a second commit at once.
    const second = [g.submit({ key: "a", n: 2 }), g.submit({ key: "b", n: 1 }), g.submit({ key: "c", n: 1 })];
    await settle();
    expect(calls.map((c) => c.items.map((i) => `${i.key}${i.n}`))).toEqual([["a1"], ["b1", "c1"]]);
    // A third slot is free, but every waiting item's key is in flight: no commit starts.
    const third = [g.submit({ key: "b", n: 2 }), g.submit({ key: "a", n: 3 })];
    await settle();
    expect(calls).toHaveLength(2);
    // a's commit ends: a2 and a3 (in order) go together; b2 still waits for b's commit.
    calls[0]!.release();
    expect(await first).toBe("a1");
    await settle();
    expect(calls.map((c) => c.items.map((i) => `${i.key}${i.n}`))).toEqual([["a1"], ["b1", "c1"], ["a2", "a3"]]);
    calls[1]!.release();
    await settle();
    expect(calls[3]!.items.map((i) => `${i.key}${i.n}`)).toEqual(["b2"]);
    calls[2]!.release();
    calls[3]!.release();
    expect(await Promise.all([...second, ...third])).toEqual(["a2", "b1", "c1", "b2", "a3"]);
    // Every item committed exactly once.
    expect(
      calls
        .flatMap((c) => c.items.map((i) => `${i.key}${i.n}`))
        .sort()
        .join(),
    ).toBe("a1,a2,a3,b1,b2,c1");
  });

  it("never more than `parallel` commits in flight, and a full batch leaves the rest of its key for later", async () => {
    const { calls, commit } = heldCommits();
    const g = new GroupCommitter<Item, string>(commit, { parallel: 2, maxBatch: 2, keyOf: (i) => i.key });
    const all = ["a", "b", "b", "c", "d", "e"].map((key, n) => g.submit({ key, n }));
    await settle();
    // [a0,b1] then b2 waits (b in flight); [c3,d4] fills the second slot; e5 waits for a slot.
    expect(calls.map((c) => c.items.map((i) => `${i.key}${i.n}`))).toEqual([
      ["a0", "b1"],
      ["c3", "d4"],
    ]);
    calls[0]!.release();
    await settle();
    expect(calls[2]!.items.map((i) => `${i.key}${i.n}`)).toEqual(["b2", "e5"]);
    calls[1]!.release();
    calls[2]!.release();
    expect(await Promise.all(all)).toEqual(["a0", "b1", "b2", "c3", "d4", "e5"]);
    expect(calls).toHaveLength(3);
  });

  it("a failed commit rejects its own items only, and the next ones go on", async () => {
    const { calls, commit } = heldCommits();
    const g = new GroupCommitter<Item, string>(commit, { parallel: 2, keyOf: (i) => i.key });
    const failing = [g.submit({ key: "a", n: 1 }), g.submit({ key: "b", n: 1 })];
    await settle();
    const other = g.submit({ key: "c", n: 1 });
    const later = g.submit({ key: "a", n: 2 });
    await settle();
    calls[0]!.release(new Error("batch failed"));
    for (const p of failing) await expect(p).rejects.toThrow("batch failed");
    calls[1]!.release();
    expect(await other).toBe("c1");
    await settle();
    calls.at(-1)!.release();
    expect(await later).toBe("a2");
  });
});
