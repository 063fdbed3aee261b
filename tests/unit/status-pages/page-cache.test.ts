// The status page cache (shared/status-pages/page-cache.ts): one build per key at a time, hits until a
// NOTIFY concerns the page, a build that raced an invalidation not kept, and the TTL bound by LISTEN state.
import { describe, expect, it } from "vitest";
import type { Built } from "../../../shared/status-pages/page-cache.ts";
import { StatusPageCache } from "../../../shared/status-pages/page-cache.ts";

const answer = (text: string) => ({ bytes: new TextEncoder().encode(text), etag: `"${text}"`, headers: {} });
const built = (text: string, pageId = 1, monitorIds = [10]): Built => ({ answer: answer(text), sources: { pageId, monitorIds } });

function counter(text: string, pageId = 1, monitorIds = [10]) {
  const c = { calls: 0, build: async () => (c.calls++, built(`${text}${c.calls}`, pageId, monitorIds)) };
  return c;
}

describe("StatusPageCache", () => {
  it("builds once for concurrent misses and answers hits until the page's monitor changes", async () => {
    const cache = new StatusPageCache();
    cache.setLive(true);
    const b = counter("v");
    const [x, y] = await Promise.all([cache.get("k", b.build), cache.get("k", b.build)]);
    expect(b.calls).toBe(1);
    expect(x).toBe(y);
    await cache.get("k", b.build);
    expect(b.calls).toBe(1);
    cache.notify("monitors", JSON.stringify({ type: "results", results: [] }));
    cache.notify("monitors", JSON.stringify({ type: "status", monitor_id: 99 }));
    await cache.get("k", b.build);
    expect(b.calls).toBe(1);
    cache.notify("monitors", JSON.stringify({ type: "status", monitor_id: 10 }));
    expect((await cache.get("k", b.build)).answer?.etag).toBe('"v2"');
  });

  it("forgets a page on status_pages {page_id}, and the 'no such page' answers with it", async () => {
    const cache = new StatusPageCache();
    cache.setLive(true);
    const b = counter("p", 7);
    await cache.get("k", b.build);
    let misses = 0;
    await cache.get("none", async () => (misses++, null));
    await cache.get("none", async () => (misses++, null));
    expect(misses).toBe(1);
    const told: unknown[] = [];
    cache.onChange((c) => told.push(c));
    cache.notify("status_pages", JSON.stringify({ page_id: 7 }));
    expect(told).toEqual([new Set([7])]);
    await cache.get("k", b.build);
    await cache.get("none", async () => (misses++, null));
    expect(b.calls).toBe(2);
    expect(misses).toBe(2);
  });

  it("does not keep a build that raced an invalidation", async () => {
    const cache = new StatusPageCache();
    cache.setLive(true);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const first = cache.get("k", async () => (await slow, built("old")));
    cache.notify("status_pages", JSON.stringify({ page_id: 1 }));
    release();
    expect((await first).answer?.etag).toBe('"old"');
    expect((await cache.get("k", async () => built("new"))).answer?.etag).toBe('"new"');
  });

  it("keeps answers 60 s while listening and 1 s otherwise", async () => {
    let now = 0;
    const cache = new StatusPageCache({ now: () => now });
    const b = counter("t");
    await cache.get("k", b.build);
    now = 1_001;
    await cache.get("k", b.build);
    expect(b.calls).toBe(2);
    cache.setLive(true);
    await cache.get("k", b.build);
    now += 59_000;
    await cache.get("k", b.build);
    expect(b.calls).toBe(3);
    now += 1_001;
    await cache.get("k", b.build);
    expect(b.calls).toBe(4);
  });
});
