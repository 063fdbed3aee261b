// How long a provider's key set is kept (shared/verbs/oauth/jwks-cache.ts): its Cache-Control max-age,
// bounded to 5 minutes .. 24 hours.
import { describe, expect, it } from "vitest";
import { cacheLifetimeMs, MAX_CACHE_MS, MIN_CACHE_MS } from "../../../shared/verbs/oauth/jwks-cache.ts";

describe("cacheLifetimeMs", () => {
  it("follows max-age within the bounds", () => {
    expect(cacheLifetimeMs("public, max-age=3600, must-revalidate")).toBe(3_600_000);
    expect(cacheLifetimeMs('max-age="900"')).toBe(900_000);
  });

  it("is the lower bound without a usable max-age, or below it", () => {
    for (const header of [undefined, "", "no-store", "no-cache", "max-age=0", "max-age=10", "s-maxage=86400", "max-age=abc"])
      expect(cacheLifetimeMs(header), String(header)).toBe(MIN_CACHE_MS);
  });

  it("is the upper bound above it", () => {
    expect(cacheLifetimeMs("max-age=31536000")).toBe(MAX_CACHE_MS);
    expect(MAX_CACHE_MS).toBe(24 * 60 * 60_000);
  });
});
