// GET /api/v1/metrics (and /api/v1/metrics/metrics): who may scrape (spec 5.1). A valid bearer token —
// session JWT or API token — with read:metrics; everything else 401 (403 for a token without the scope)
// in the JSON envelope; the deprecated SVC_API_TOKEN only with SVC_LEGACY_AUTH; nothing before first run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../../shared/auth/password.ts";
import { EXPOSITION_CONTENT_TYPE } from "../../../shared/metrics/exposition.ts";
import { apiToken, type MetricsApp, metricsApp } from "./lab.ts";

const LEGACY = "legacy-static-token-for-metrics-0123";
const PATHS = ["/api/v1/metrics", "/api/v1/metrics/metrics"];

async function expect401(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await res.json();
  expect(body.error_code).toBe("UNAUTHORIZED");
  expect(typeof body.detail).toBe("string");
}

describe("metrics access on a bootstrapped deployment", () => {
  let m: MetricsApp;
  let admin: string;
  let viewer: string;
  let readOnly: string;
  let telemetryOnly: string;

  beforeAll(async () => {
    m = await metricsApp({ SVC_API_TOKEN: LEGACY });
    admin = await m.bootstrap();
    const hash = await hashPassword("viewer password for tests", { iterations: 1000 });
    await m.t.sql`insert into users (email, password_hash, role) values ('viewer@example.com', ${hash}, 'viewer')`;
    const login = await m.post("/api/v1/auth/jwt/login", undefined, { email: "viewer@example.com", password: "viewer password for tests" });
    expect(login.status).toBe(200);
    viewer = (await login.json()).access_token;
    readOnly = await apiToken(m, admin, ["read:*"]);
    telemetryOnly = await apiToken(m, admin, ["write:telemetry"]);
  });
  afterAll(async () => m?.t.close());

  it.each(PATHS)("%s answers 401 without a credential", async (path) => {
    await expect401(await m.get(path));
  });

  it("answers 401 for a bearer token that is not valid", async () => {
    await expect401(await m.get(PATHS[0]!, "not-a-real-token"));
    await expect401(await m.get(PATHS[0]!, `${readOnly.slice(0, -2)}xx`));
  });

  it("answers 401 for a session cookie without a bearer header", async () => {
    await expect401(await m.get(PATHS[0]!, undefined, { cookie: `svc_session=${admin}` }));
  });

  it("answers 401 for the deprecated SVC_API_TOKEN unless SVC_LEGACY_AUTH is set", async () => {
    const res = await m.get(PATHS[0]!, LEGACY);
    await expect401(res.clone());
    expect((await res.json()).detail).toMatch(/deprecated/);
  });

  it("answers 403 for a token without read:metrics", async () => {
    const res = await m.get(PATHS[0]!, telemetryOnly);
    expect(res.status).toBe(403);
    expect((await res.json()).error_code).toBe("PERMISSION_DENIED");
  });

  it.each([
    ["an admin session JWT", () => admin],
    ["a viewer session JWT", () => viewer],
    ["a read-only API token", () => readOnly],
  ])("answers 200 in the exposition format for %s", async (_, token) => {
    for (const path of PATHS) {
      const res = await m.get(path, token());
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(EXPOSITION_CONTENT_TYPE);
      const text = await res.text();
      expect(text).toContain('svc_info{version="0.0.0-test"} 1\n');
      expect(text.endsWith("\n")).toBe(true);
    }
  });

  it("is left out of the OpenAPI document", async () => {
    const doc = await (await m.get("/api/openapi.json")).json();
    // The scrape only: /agents/metrics/series is an ordinary catalogue route.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/v1/metrics"))).toEqual([]);
  });

  it("is never rate limited", async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 70; i++) {
      const res = await m.get(PATHS[0]!, readOnly, { "x-test-peer": "203.0.113.7" });
      statuses.add(res.status);
      await res.body?.cancel();
    }
    expect([...statuses]).toEqual([200]);
  });
});

describe("metrics access before first run and with the legacy grant", () => {
  let m: MetricsApp;

  beforeAll(async () => {
    m = await metricsApp({ SVC_API_TOKEN: LEGACY, SVC_LEGACY_AUTH: "true" });
  });
  afterAll(async () => m?.t.close());

  it("answers 401 before an administrator exists, even to the legacy token, then 200 to it once SVC_LEGACY_AUTH restores it", async () => {
    await expect401(await m.get(PATHS[0]!));
    const early = await m.get(PATHS[0]!, LEGACY);
    await expect401(early.clone());
    expect((await early.json()).detail).toMatch(/First-run/);
    await m.bootstrap();
    const res = await m.get(PATHS[0]!, LEGACY);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(EXPOSITION_CONTENT_TYPE);
  });
});
