import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ REDIS_URL: "redis://127.0.0.1:6379" });
});
afterAll(async () => t.close());

describe("probes", () => {
  it("livez answers alive without touching a dependency", async () => {
    const res = await t.app.request("/api/v1/livez");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "alive" });
    expect(typeof body.uptime_s).toBe("number");
  });

  it("every probe answers HEAD with the GET status and no body", async () => {
    for (const p of ["livez", "startupz", "readyz", "health"]) {
      const res = await t.app.request(`/api/v1/${p}`, { method: "HEAD" });
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toBe("");
    }
  });

  it("readyz reports every check and that writes are permitted", async () => {
    const res = await t.app.request("/api/v1/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ready: true,
      state: "ready",
      health: "ready",
      checks: { database: "ok", migrations: "ok", redis: "ok" },
      degraded: [],
      writes_permitted: true,
    });
  });

  it("startupz is 200 once started", async () => {
    const res = await t.app.request("/api/v1/startupz");
    expect(await res.json()).toEqual({ started: true, state: "ready" });
  });

  it("legacy health has its shape and no version for an anonymous caller", async () => {
    const body = await (await t.app.request("/api/v1/health")).json();
    expect(body).toMatchObject({ state: "ready", ready: true, health: "ready", degraded: [] });
    expect(body.checks.database).toBe("ok");
    expect(body).not.toHaveProperty("version");
  });

  it("echoes a sane X-Request-ID and makes one otherwise", async () => {
    const mine = await t.app.request("/api/v1/livez", { headers: { "x-request-id": "abc-123" } });
    expect(mine.headers.get("x-request-id")).toBe("abc-123");
    const bad = await t.app.request("/api/v1/livez", { headers: { "x-request-id": "<script>" } });
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
