// The notification provider registry (shared/domain/notifications/notifiers/README.md): every provider
// is one file named after its type, listed once in index.ts, with its recorded-fixture test and fixture;
// a provider file left out of the list, or listed without a test, fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NOTIFIERS, NOTIFIER_TYPES, NOTIFIER_FIELDS } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { TEMPLATE_KEYS } from "../../../../shared/domain/notifications/templates.ts";
import { readFixture } from "../../../helpers/notification-fixtures.ts";

const here = new URL("./", import.meta.url);
const folder = new URL("../../../../shared/domain/notifications/notifiers/", import.meta.url);
/** The folder's files that are not providers. */
const NOT_PROVIDERS = new Set(["index.ts", "notifier.ts"]);

describe("notification provider registry", () => {
  it("lists every provider file once, under its own type", () => {
    const files = readdirSync(folder)
      .filter((f) => f.endsWith(".ts") && !NOT_PROVIDERS.has(f))
      .map((f) => f.slice(0, -3))
      .sort();
    expect([...NOTIFIER_TYPES].sort()).toEqual(files);
    expect(new Set(NOTIFIER_TYPES).size).toBe(NOTIFIER_TYPES.length);
  });

  for (const provider of NOTIFIERS) {
    it(`${provider.type}: has its fixture test and fixture cases`, () => {
      const test = new URL(`${provider.type}.test.ts`, here);
      expect(existsSync(test), `tests/unit/notifications/notifiers/${provider.type}.test.ts`).toBe(true);
      expect(readFileSync(test, "utf8")).toContain(`providerFixtureTests(${provider.type})`);
      expect(readFixture(provider.type).cases.length).toBeGreaterThan(0);
    });

    it(`${provider.type}: its keys are snake_case and an alias shadows no key`, () => {
      const fields = NOTIFIER_FIELDS[provider.type];
      for (const [key, f] of Object.entries(fields)) {
        expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
        if (f.alias) expect(fields[f.alias], `${key}'s alias ${f.alias} is not a key of its own`).toBeUndefined();
      }
    });

    it(`${provider.type}: takes the message templates every sink takes, none of its own under their names`, () => {
      for (const key of Object.keys(TEMPLATE_KEYS)) {
        expect(Object.hasOwn(provider.fields, key), `${key} is added by index.ts`).toBe(false);
        expect(NOTIFIER_FIELDS[provider.type][key]).toBe(TEMPLATE_KEYS[key as keyof typeof TEMPLATE_KEYS]);
      }
    });
  }
});
