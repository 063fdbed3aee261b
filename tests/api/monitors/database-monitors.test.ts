// postgres, mysql and redis monitors through the API: the password sealed by the vault, never answered
// (password_set instead), kept when the mask is sent back, opened for the runner; a config key the type
// does not have is a 422 naming it, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeConfig } from "../../../shared/verbs/monitors/secrets.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const stored = (id: number) => a.stored(id);

const CONFIGS = {
  postgres: {
    port: 5432,
    database: "app",
    username: "monitor",
    password: "pg-Secret-1",
    query: "select 1",
    expected_value: "1",
    tls: false,
  },
  mysql: { port: 3306, database: "app", username: "monitor", password: "my-Secret-1", query: "SELECT 1", expected_value: "1" },
  redis: { port: 6379, database: 3, username: "monitor", password: "rd-Secret-1", key: "health", expected_value: "ok", tls: false },
} as const;

describe("database monitors", () => {
  for (const [checkType, config] of Object.entries(CONFIGS)) {
    it(`${checkType}: the password is sealed, masked on every read and opened for the runner`, async () => {
      const res = await a.req("POST", "monitors", a.admin, { name: `db-${checkType}`, check_type: checkType, host: "127.0.0.1", config });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(await res.clone().text()).not.toContain(config.password);
      const m = await res.json();
      expect(m.config).toEqual({ ...config, password: "********", password_set: true });

      const read = await a.req("GET", `monitors/${m.id}`, a.admin);
      const text = await read.text();
      expect(text).not.toContain(config.password);
      expect(JSON.parse(text).config).toMatchObject({ password: "********", password_set: true });

      const row = await stored(m.id);
      expect(JSON.stringify(row.config)).not.toContain(config.password);
      expect(row.secret_config).toMatch(/^vault:v1:/);
      expect(await runtimeConfig(a.t.runtime.deps.vault, row)).toMatchObject({ password: config.password });

      // The whole config sent back (mask and password_set included) keeps the password.
      const back = await a.req("PATCH", `monitors/${m.id}`, a.admin, { config: { ...m.config, expected_value: "2" } });
      expect(back.status, await back.clone().text()).toBe(200);
      expect(await runtimeConfig(a.t.runtime.deps.vault, await stored(m.id))).toMatchObject({
        password: config.password,
        expected_value: "2",
      });
    });
  }

  it("refuses a config key the type does not have (422 naming it) and stores nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
    for (const [checkType, key] of [
      ["redis", "query"],
      ["postgres", "key"],
      ["mysql", "url"],
    ] as const) {
      const res = await a.req("POST", "monitors", a.admin, {
        name: `bad-${checkType}`,
        check_type: checkType,
        host: "127.0.0.1",
        config: { [key]: "x", password: "never-stored" },
      });
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(JSON.stringify(body)).toContain(`Unknown field \\"${key}\\" for a ${checkType} check.`);
      expect(JSON.stringify(body)).toContain(`"config","${key}"`);
    }
    const res = await a.req("POST", "monitors", a.admin, {
      name: "bad-redis-db",
      check_type: "redis",
      host: "127.0.0.1",
      config: { database: 16 },
    });
    expect(res.status).toBe(422);
    expect((await a.t.sql`select count(*)::int as n from monitors`)[0]!.n).toBe(before);
  });
});
