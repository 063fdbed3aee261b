import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../shared/config.ts";

describe("configuration", () => {
  it("has defaults for everything", () => {
    const c = parseConfig({}, "1.2.3\n");
    expect(c).toMatchObject({ PORT: 8080, DATA_DIR: "./data", DEV_MODE: false, MAX_BODY_BYTES: 1_048_576, version: "1.2.3" });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it("APP_VERSION wins over the VERSION file", () => {
    expect(parseConfig({ APP_VERSION: "9.9.9" }, "1.0.0").version).toBe("9.9.9");
  });

  it.each([
    ["PORT", "abc", /PORT expects a whole number/],
    ["PORT", "70000", /PORT expects a whole number from 0 to 65535/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL expects a URL starting with postgres:\/\//],
    ["DEV_MODE", "maybe", /DEV_MODE expects true or false/],
    ["TRUSTED_PROXIES", "not a cidr", /TRUSTED_PROXIES expects a comma-separated list/],
  ])("%s=%s stops the start with one line naming it", (name, value, message) => {
    let err: unknown;
    try {
      parseConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain("\n");
  });
});
