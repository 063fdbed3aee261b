import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("lifecycle and the write-admission guard", () => {
  it("drains: readyz 503 stopping, writes 503 SERVER_DRAINING with Retry-After, startupz still 200, reads served", async () => {
    t.runtime.deps.lifecycle.beginStopping();
    const ready = await t.app.request("/api/v1/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, state: "stopping", health: "stopping", writes_permitted: false });

    const write = await t.app.request("/api/v1/tenants", { method: "POST" });
    expect(write.status).toBe(503);
    expect(write.headers.get("retry-after")).toBe("5");
    expect(await write.json()).toMatchObject({ error_code: "SERVER_DRAINING", health: "stopping" });

    expect((await t.app.request("/api/v1/startupz")).status).toBe(200);
    expect((await t.app.request("/api/v1/bootstrap/status")).status).toBe(200);
  });
});
