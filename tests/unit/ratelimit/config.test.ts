import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../../shared/config.ts";

function refusal(env: Record<string, string>): Error {
  try {
    parseConfig(env);
  } catch (e) {
    return e as Error;
  }
  throw new Error("parseConfig accepted it");
}

describe("RATE_LIMIT_STORE", () => {
  it("defaults to redis when REDIS_URL is set, else the database", () => {
    expect(parseConfig({}).RATE_LIMIT_STORE).toBe("database");
    expect(parseConfig({ REDIS_URL: "redis://127.0.0.1:6379" }).RATE_LIMIT_STORE).toBe("redis");
    expect(parseConfig({ REDIS_URL: "redis://127.0.0.1:6379", RATE_LIMIT_STORE: "database" }).RATE_LIMIT_STORE).toBe("database");
  });

  it("memory stops the start with one line naming RATE_LIMIT_STORE and why", () => {
    const err = refusal({ RATE_LIMIT_STORE: "memory", REDIS_URL: "redis://127.0.0.1:6379" });
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/^invalid configuration: RATE_LIMIT_STORE=memory is refused: .*shared/);
    expect(err.message).not.toContain("\n");
  });

  it("redis without REDIS_URL, or an unknown store, is refused by name", () => {
    expect(refusal({ RATE_LIMIT_STORE: "redis" }).message).toMatch(/RATE_LIMIT_STORE=redis expects REDIS_URL/);
    expect(refusal({ RATE_LIMIT_STORE: "memcached" }).message).toMatch(
      /^invalid configuration: RATE_LIMIT_STORE expects redis or database/,
    );
  });

  it("TRUSTED_PROXIES accepts IPv4, IPv6 and IPv4-mapped ranges and refuses what would not match", () => {
    expect(parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, ::1, fd00::/8, ::ffff:10.0.0.0/104" }).TRUSTED_PROXIES).toHaveLength(4);
    expect(refusal({ TRUSTED_PROXIES: "10.0.0.0/33" }).message).toMatch(/TRUSTED_PROXIES expects a comma-separated list/);
    expect(refusal({ TRUSTED_PROXIES: "1.2.3" }).message).toMatch(/TRUSTED_PROXIES/);
  });
});
