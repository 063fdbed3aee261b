// Rate limits through the whole app with the database store (no REDIS_URL, the embedded default).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { clearOfMinuteBoundary } from "../../unit/ratelimit/support.ts";
import { burst, count, PEER_HEADER, testPeer } from "./support.ts";

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: "setup-token-for-rate-limit-reads" }, { peerAddress: testPeer });
  proxied = await createTestApp({ TRUSTED_PROXIES: "10.0.0.0/8" }, { peerAddress: testPeer });
});
afterAll(async () => {
  await t.close();
  await proxied.close();
});
beforeEach(() => clearOfMinuteBoundary());

describe("rate limits with the database store", () => {
  it("resolves to the database store without REDIS_URL", () => {
    expect(t.runtime.deps.config.RATE_LIMIT_STORE).toBe("database");
  });

  it("default category, normal profile: 30 requests, then 429 RATE_LIMITED with retry_after and Retry-After", async () => {
    const { statuses, last } = await burst(t.app, 31, "/api/v1/tenants", { peer: "203.0.113.10" });
    expect(count(statuses.slice(0, 30), 410)).toBe(30);
    expect(last.status).toBe(429);
    const body = await last.json();
    expect(body).toMatchObject({ error_code: "RATE_LIMITED" });
    expect(Number.isInteger(body.retry_after)).toBe(true);
    expect(body.retry_after).toBeGreaterThanOrEqual(1);
    expect(body.retry_after).toBeLessThanOrEqual(60);
    expect(last.headers.get("retry-after")).toBe(String(body.retry_after));
    expect(body.detail).toBe(`Too many requests; retry after ${body.retry_after} seconds.`);
    expect(last.headers.get("x-request-id")).toBeTruthy();
    const rows = await t.sql<
      { hits: number }[]
    >`select hits from rate_limit_counters where key = 'default:203.0.113.10:POST /api/v1/tenants'`;
    expect(rows.reduce((n, r) => n + r.hits, 0)).toBe(30);
  });

  it("concurrent requests are counted exactly: one client's 35 get 30 through, the other clients' are unaffected", async () => {
    const send = (peer: string) => t.app.request("/api/v1/tenants", { method: "POST", headers: { [PEER_HEADER]: peer } });
    const others = Array.from({ length: 10 }, (_, i) => `203.0.113.${70 + i}`);
    // One client's requests among the others', all in flight at once: their hits share statements.
    const peers = [...Array.from({ length: 35 }, () => "203.0.113.60"), ...others];
    const answers = await Promise.all(peers.map(send));
    const mine = answers.slice(0, 35);
    expect(
      count(
        mine.map((r) => r.status),
        410,
      ),
    ).toBe(30);
    expect(
      count(
        mine.map((r) => r.status),
        429,
      ),
    ).toBe(5);
    const remaining = mine.filter((r) => r.status === 410).map((r) => Number(r.headers.get("ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(answers.slice(35).map((r) => [r.status, r.headers.get("ratelimit-remaining")])).toEqual(others.map(() => [410, "29"]));
    const rows = await t.sql<
      { hits: number }[]
    >`select hits from rate_limit_counters where key = 'default:203.0.113.60:POST /api/v1/tenants'`;
    expect(rows.reduce((n, r) => n + r.hits, 0)).toBe(30);
  });

  it("admitted responses carry RateLimit-* headers counting down", async () => {
    const first = await t.app.request("/api/v1/tenants", { method: "POST", headers: { [PEER_HEADER]: "203.0.113.11" } });
    expect(first.status).toBe(410);
    expect(first.headers.get("ratelimit-limit")).toBe("30");
    expect(first.headers.get("ratelimit-remaining")).toBe("29");
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
  });

  it("keys by client: another client is unaffected, and a spoofed X-Forwarded-For from an untrusted peer is ignored", async () => {
    await burst(t.app, 30, "/api/v1/tenants", { peer: "203.0.113.20" });
    const spoofed = await burst(t.app, 3, "/api/v1/tenants", { peer: "203.0.113.20", headers: { "x-forwarded-for": "198.51.100.99" } });
    expect(spoofed.statuses).toEqual([429, 429, 429]);
    const other = await t.app.request("/api/v1/tenants", { method: "POST", headers: { [PEER_HEADER]: "203.0.113.21" } });
    expect(other.status).toBe(410);
  });

  it("behind a trusted proxy each forwarded client has its own bucket", async () => {
    const a = await burst(proxied.app, 31, "/api/v1/tenants", { peer: "10.0.0.5", headers: { "x-forwarded-for": "198.51.100.1" } });
    expect(a.last.status).toBe(429);
    const b = await proxied.app.request("/api/v1/tenants", {
      method: "POST",
      headers: { [PEER_HEADER]: "10.0.0.5", "x-forwarded-for": "198.51.100.2" },
    });
    expect(b.status).toBe(410);
    // The client cannot escape by prepending an address: the proxy's entry on the right still counts.
    const c = await proxied.app.request("/api/v1/tenants", {
      method: "POST",
      headers: { [PEER_HEADER]: "10.0.0.5", "x-forwarded-for": "1.2.3.4, 198.51.100.1" },
    });
    expect(c.status).toBe(429);
  });

  it("reads count too; categories have separate buckets", async () => {
    const reads = await burst(t.app, 31, "/api/v1/tenants", { method: "GET", peer: "203.0.113.30" });
    expect(reads.last.status).toBe(429);
    // POST /auth/login is the auth category (5/minute): its own bucket, untouched by the reads above.
    const login = await t.app.request("/api/v1/auth/login", { method: "POST", headers: { [PEER_HEADER]: "203.0.113.30" } });
    expect(login.status).not.toBe(429);
    expect(login.headers.get("ratelimit-limit")).toBe("5");
  });

  it("the probes are never limited", async () => {
    await burst(t.app, 31, "/api/v1/tenants", { peer: "203.0.113.40" });
    for (const p of ["livez", "startupz", "readyz", "health"]) {
      const { statuses } = await burst(t.app, 40, `/api/v1/${p}`, { method: "GET", peer: "203.0.113.40" });
      expect(count(statuses, 429), p).toBe(0);
    }
    const res = await t.app.request("/api/v1/livez", { headers: { [PEER_HEADER]: "203.0.113.40" } });
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });

  it("a read past the limit: the read's own answer is dropped whole for the 429, and so are the next ones", async () => {
    const setup = "setup-token-for-rate-limit-reads";
    const init = await t.app.request("/api/v1/bootstrap/initialize", {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_HEADER]: "203.0.113.50" },
      body: JSON.stringify({ email: "rl@example.com", password: "a long enough password", setup_token: setup }),
    });
    expect(init.status).toBe(200);
    const auth = { authorization: `Bearer ${(await init.json()).token}` };
    const made = await t.app.request("/api/v1/hardware", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", [PEER_HEADER]: "203.0.113.50" },
      body: JSON.stringify({ name: "rl-node" }),
    });
    const path = `/api/v1/hardware/${(await made.json()).id}`;
    const reads = await burst(t.app, 30, path, { method: "GET", peer: "203.0.113.51", headers: auth });
    expect(count(reads.statuses, 200)).toBe(30);
    expect(reads.last.headers.get("etag")).toBeTruthy();
    for (let i = 0; i < 2; i++) {
      const refused = await t.app.request(path, { headers: { ...auth, [PEER_HEADER]: "203.0.113.51" } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("etag")).toBeNull();
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
      expect(await refused.json()).toMatchObject({ error_code: "RATE_LIMITED" });
    }
  });

  it("without a known peer every request shares the 'unknown' bucket", async () => {
    const { last } = await burst(t.app, 31, "/api/v1/tenants");
    expect(last.status).toBe(429);
    const rows = await t.sql`select 1 from rate_limit_counters where key = 'default:unknown:POST /api/v1/tenants'`;
    expect(rows.length).toBe(1);
  });
});
