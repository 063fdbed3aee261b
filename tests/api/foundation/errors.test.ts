import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
let dev: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  dev = await createTestApp({ DEV_MODE: "true" });
  for (const x of [t, dev])
    x.app.get("/api/v1/test-only/boom", () => {
      throw new Error("kaboom");
    });
});
afterAll(async () => {
  await t.close();
  await dev.close();
});

describe("error envelope", () => {
  it("unknown paths under /api/ answer 404 JSON", async () => {
    const res = await t.app.request("/api/v1/does-not-exist");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ error_code: "RESOURCE_NOT_FOUND" });
  });

  it("an unhandled exception is 500 INTERNAL_SERVER_ERROR with no traceback in production", async () => {
    const res = await t.app.request("/api/v1/test-only/boom");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error_code: "INTERNAL_SERVER_ERROR", detail: "Internal server error" });
  });

  it("DEV_MODE=true adds the traceback", async () => {
    const body = await (await dev.app.request("/api/v1/test-only/boom")).json();
    expect(body.error_code).toBe("INTERNAL_SERVER_ERROR");
    expect(body.traceback).toContain("kaboom");
  });

  it("tenants answer 410 on every method, forgot/reset-password 410", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      for (const path of ["/api/v1/tenants", "/api/v1/tenants/a/b"]) {
        const res = await t.app.request(path, { method });
        expect(res.status, `${method} ${path}`).toBe(410);
      }
    }
    for (const p of ["forgot-password", "reset-password"]) {
      expect((await t.app.request(`/api/v1/auth/${p}`, { method: "POST" })).status).toBe(410);
    }
  });
});
