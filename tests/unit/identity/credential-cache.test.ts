// The credential cache's rules, without a database: it remembers only while live, for at most its TTL
// or the credential's own expiry, and never stores a resolution that raced a flush.
import { describe, expect, it } from "vitest";
import { CredentialCache } from "../../../shared/identity/credential-cache.ts";
import type { Actor } from "../../../shared/verbs/actor.ts";

const actor: Actor = { userId: 7, email: "a@example.com", role: "viewer", roleScopes: ["read:*"], kind: "session", sessionId: "s1" };
const T0 = 1_800_000_000_000;

function liveCache(ttlMs = 10_000): CredentialCache {
  const cache = new CredentialCache({ ttlMs });
  cache.setLive(true);
  return cache;
}

describe("CredentialCache", () => {
  it("keys by SHA-256, never by the credential itself", () => {
    const key = new CredentialCache({ ttlMs: 1 }).keyOf("svc_abcdefgh_secret");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain("secret");
  });

  it("remembers a resolution until the TTL, and hands out copies", () => {
    const cache = liveCache(10_000);
    cache.set("k", actor, Number.POSITIVE_INFINITY, cache.generation, T0);
    const hit = cache.get("k", T0 + 9_999)!;
    expect(hit).toEqual(actor);
    hit.role = "admin";
    expect(cache.get("k", T0 + 9_999)!.role).toBe("viewer");
    expect(cache.get("k", T0 + 10_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("never outlives the credential's own expiry", () => {
    const cache = liveCache(10_000);
    cache.set("k", actor, T0 + 3_000, cache.generation, T0);
    expect(cache.get("k", T0 + 2_999)).toBeDefined();
    expect(cache.get("k", T0 + 3_000)).toBeUndefined();
    cache.set("gone", actor, T0, cache.generation, T0);
    expect(cache.size).toBe(0);
  });

  it("drops a resolution that began before a flush (it may have read a row that has changed since)", () => {
    const cache = liveCache();
    const began = cache.generation;
    cache.flush();
    cache.set("k", actor, Number.POSITIVE_INFINITY, began, T0);
    expect(cache.get("k", T0)).toBeUndefined();
  });

  it("flush forgets everything", () => {
    const cache = liveCache();
    cache.set("a", actor, Number.POSITIVE_INFINITY, cache.generation, T0);
    cache.set("b", actor, Number.POSITIVE_INFINITY, cache.generation, T0);
    cache.flush();
    expect(cache.get("a", T0)).toBeUndefined();
    expect(cache.get("b", T0)).toBeUndefined();
  });

  it("remembers nothing while its listener is down, and starts empty when it is back", () => {
    const cache = new CredentialCache({ ttlMs: 10_000 });
    cache.set("k", actor, Number.POSITIVE_INFINITY, cache.generation, T0);
    expect(cache.get("k", T0)).toBeUndefined();
    cache.setLive(true);
    cache.set("k", actor, Number.POSITIVE_INFINITY, cache.generation, T0);
    cache.setLive(false);
    expect(cache.get("k", T0)).toBeUndefined();
    cache.setLive(true);
    expect(cache.get("k", T0)).toBeUndefined();
  });

  it("is bounded: when full it starts over", () => {
    const cache = new CredentialCache({ ttlMs: 10_000, maxEntries: 3 });
    cache.setLive(true);
    for (const k of ["a", "b", "c", "d"]) cache.set(k, actor, Number.POSITIVE_INFINITY, cache.generation, T0);
    expect(cache.size).toBe(1);
    expect(cache.get("d", T0)).toBeDefined();
  });
});
