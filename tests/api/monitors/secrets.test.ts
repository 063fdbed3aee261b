// http monitor secrets: sealed by the vault bound to the row, answered masked with `<key>_set`, kept when
// the mask is sent back, cleared by null, opened for the runner by runtimeConfig().
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeConfig } from "../../../shared/verbs/monitors/secrets.ts";
import { Vault } from "../../../shared/vault/vault.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const stored = (id: number) => a.stored(id);

describe("http secrets", () => {
  it("never returns or stores in clear the password, token and credential headers", async () => {
    const res = await a.req("POST", "monitors", a.admin, {
      name: "api",
      check_type: "http",
      host: "api.example.net",
      config: {
        url: "https://api.example.net/health",
        auth_type: "basic",
        username: "ops",
        password: "hunter2",
        headers: { Authorization: "Bearer abc", "X-Trace": "1" },
      },
    });
    expect(res.status).toBe(201);
    const text = await res.clone().text();
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("Bearer abc");
    const m = await res.json();
    expect(m.config).toEqual({
      url: "https://api.example.net/health",
      auth_type: "basic",
      username: "ops",
      password: "********",
      password_set: true,
      headers: { Authorization: "********", "X-Trace": "1" },
    });
    const row = await stored(m.id);
    expect(JSON.stringify(row.config)).not.toContain("hunter2");
    expect(row.secret_config).toMatch(/^vault:v1:/);
    const audits = await a.t.sql`select diff::text as d from audit_log where entity_type = 'monitor' and entity_id = ${String(m.id)}`;
    for (const r of audits) expect(r.d).not.toContain("hunter2");

    const clear = await runtimeConfig(a.t.runtime.deps.vault, row);
    expect(clear).toMatchObject({ password: "hunter2", headers: { Authorization: "Bearer abc", "X-Trace": "1" } });

    // The whole record sent back keeps the secrets; a new keyword changes only that.
    const back = await a.req("PATCH", `monitors/${m.id}`, a.admin, { ...m, config: { ...m.config, keyword: "ok" } });
    expect(back.status).toBe(200);
    expect((await back.json()).config).toMatchObject({ password: "********", password_set: true, keyword: "ok" });
    expect(await runtimeConfig(a.t.runtime.deps.vault, await stored(m.id))).toMatchObject({
      password: "hunter2",
      keyword: "ok",
      headers: { Authorization: "Bearer abc" },
    });

    // A new value replaces; null clears.
    await a.req("PATCH", `monitors/${m.id}`, a.admin, { config: { ...m.config, password: "new-pass", headers: { "X-Trace": "1" } } });
    expect(await runtimeConfig(a.t.runtime.deps.vault, await stored(m.id))).toMatchObject({
      password: "new-pass",
      headers: { "X-Trace": "1" },
    });
    const cleared = await a.req("PATCH", `monitors/${m.id}`, a.admin, {
      config: { url: "https://api.example.net/health", password: null },
    });
    expect((await cleared.json()).config).toEqual({ url: "https://api.example.net/health", password: null, password_set: false });
    expect((await stored(m.id)).secret_config).toBeNull();
  });

  it("refuses a mask with nothing stored behind it (422) and a bearer token is masked too", async () => {
    const masked = await a.req("POST", "monitors", a.admin, { name: "m", check_type: "http", host: "h", config: { token: "********" } });
    expect(masked.status).toBe(422);
    expect((await masked.json()).fields).toHaveProperty(["config.token"]);
    const res = await a.req("POST", "monitors", a.admin, {
      name: "b",
      check_type: "http",
      host: "h",
      config: { auth_type: "bearer", token: "t0ken" },
    });
    const m = await res.json();
    expect(m.config).toEqual({ auth_type: "bearer", token: "********", token_set: true });
    const list = await (await a.req("GET", "monitors?q=b", a.viewer)).text();
    expect(list).not.toContain("t0ken");
  });

  it("a process without a vault key refuses a new secret (503, nothing written) but takes other monitors", async () => {
    const deps = a.t.runtime.deps;
    const loaded = deps.vault;
    deps.vault = await Vault.open("none", undefined);
    try {
      const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
      const res = await a.req("POST", "monitors", a.admin, { name: "no-vault", check_type: "http", host: "h", config: { password: "p" } });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", health: "vault_ephemeral" });
      expect((await a.t.sql`select count(*)::int as n from monitors`)[0]!.n).toBe(before);
      expect(
        (await a.req("POST", "monitors", a.admin, { name: "plain", check_type: "http", host: "h", config: { url: "http://h/" } })).status,
      ).toBe(201);
    } finally {
      deps.vault = loaded;
    }
  });
});
