// GET /health shows the release version to authenticated callers only (spec 9.2).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.t.close());

describe("GET /health version", () => {
  it("is absent for an anonymous caller", async () => {
    const res = await h.call("/api/v1/health", { token: "" });
    expect(res.status).toBe(200);
    expect(await res.json()).not.toHaveProperty("version");
  });

  it("is absent for an invalid credential, which is not refused on this public route", async () => {
    const res = await h.call("/api/v1/health", { token: "not-a-real-token" });
    expect(res.status).toBe(200);
    expect(await res.json()).not.toHaveProperty("version");
  });

  it("is present for any signed-in user, viewer included", async () => {
    for (const token of [h.adminToken, h.viewerToken]) {
      const body = await (await h.call("/api/v1/health", { token })).json();
      expect(body.version).toBe("0.0.0-test");
    }
  });
});
