// Rate-limit buckets are per route (docs/architecture.md, API contracts): a client's reads of different routes count apart, the
// route's pattern names the bucket (ids cannot mint new ones), paths no route answers share one bucket
// per method, and sign-in keeps one bucket per client across its routes. Normal profile, both stores.
import type { Hono } from "hono";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../../functions/deps.ts";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";
import { REDIS_URL } from "../../helpers/env.ts";
import { randomClientIp } from "../../unit/ratelimit/support.ts";
import { burst, count, PEER_HEADER, testPeer } from "./support.ts";

const SETUP = "setup-token-for-per-route-limits";

/** Fifteen different reads a dashboard might load, all answering 200 to an administrator. */
const DASHBOARD = [
  "hardware",
  "services",
  "networks",
  "storage",
  "compute-units",
  "tags",
  "sites",
  "vlans",
  "misc",
  "external-nodes",
  "hardware-clusters",
  "ipam",
  "environments",
  "categories",
  "docs",
].map((p) => `/api/v1/${p}`);

interface Setup {
  t: TestApp;
  auth: Record<string, string>;
  hardwareIds: number[];
}

async function setUp(env: Record<string, string>): Promise<Setup> {
  const t = await createTestApp({ SVC_SETUP_TOKEN: SETUP, ...env }, { peerAddress: testPeer });
  if (env.REDIS_URL && t.runtime.redis?.status !== "ready") await new Promise((r) => t.runtime.redis?.once("ready", r));
  const setupPeer = { [PEER_HEADER]: randomClientIp() };
  const init = await t.app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ email: "per-route@example.com", password: "a long enough password", setup_token: SETUP }, setupPeer),
  });
  expect(init.status).toBe(200);
  const auth = { authorization: `Bearer ${(await init.json()).token}` };
  const hardwareIds: number[] = [];
  for (const name of ["node-a", "node-b"]) {
    const made = await t.app.request("/api/v1/hardware", { method: "POST", ...json({ name }, { ...auth, ...setupPeer }) });
    expect(made.status).toBe(201);
    hardwareIds.push((await made.json()).id);
  }
  return { t, auth, hardwareIds };
}

const stores: [string, Record<string, string>][] = [
  ["database", {}],
  ["redis", { REDIS_URL }],
];

describe.each(stores)("per-route buckets (%s store)", (_store, env) => {
  let s: Setup;
  let app: Hono<AppEnv>;
  const read = (path: string, peer: string) => app.request(path, { headers: { ...s.auth, [PEER_HEADER]: peer } });

  beforeAll(async () => {
    s = await setUp(env);
    app = s.t.app;
  });
  afterAll(async () => s?.t.close());
  // Each burst below must fall in one window: both stores (and @upstash/ratelimit inside the Redis one)
  // place a hit by Date.now(), so a burst that straddles a minute boundary meets the sliding window's
  // floor()-weighted previous minute and may get one extra slot. Waiting out the boundary only bounds
  // that by the burst's speed (a loaded machine let 31 through); the date stands still instead, so every
  // hit of a test falls in the same window at the same weight. Timers stay real.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a dashboard of 15 different reads, loaded twice in a minute, is never refused", async () => {
    const peer = randomClientIp();
    const answers: Response[] = [];
    for (let round = 0; round < 2; round++) for (const path of DASHBOARD) answers.push(await read(path, peer));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(200));
    // Each route has used 2 of its 30; one bucket for all would be empty now.
    expect(answers.slice(15).map((r) => r.headers.get("ratelimit-remaining"))).toEqual(Array(15).fill("28"));
    const more = await read("/api/v1/settings", peer);
    expect(more.status).toBe(200);
    expect(more.headers.get("ratelimit-remaining")).toBe("29");
  });

  it("31 reads of one route in a minute: the 31st is refused while another route still answers", async () => {
    const peer = randomClientIp();
    const { statuses, last } = await burst(app, 31, "/api/v1/hardware", { method: "GET", peer, headers: s.auth });
    expect(count(statuses.slice(0, 30), 200)).toBe(30);
    expect(last.status).toBe(429);
    const body = await last.json();
    expect(body).toMatchObject({ error_code: "RATE_LIMITED" });
    expect(last.headers.get("retry-after")).toBe(String(body.retry_after));
    expect(last.headers.get("ratelimit-limit")).toBe("30");
    expect(last.headers.get("ratelimit-remaining")).toBe("0");

    const other = await read("/api/v1/services", peer);
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-remaining")).toBe("29");
    // The refused route stays refused (its reads now wait for the verdict); the other keeps answering.
    expect((await read("/api/v1/hardware", peer)).status).toBe(429);
    expect((await read("/api/v1/services", peer)).status).toBe(200);
  });

  it("/hardware/{a} and /hardware/{b} share the bucket of GET /api/v1/hardware/:hardware_id", async () => {
    const peer = randomClientIp();
    const [a, b] = s.hardwareIds.map((id) => `/api/v1/hardware/${id}`) as [string, string];
    const answers: Response[] = [];
    for (let i = 0; i < 15; i++) answers.push(await read(a, peer), await read(b, peer));
    expect(
      count(
        answers.map((r) => r.status),
        200,
      ),
    ).toBe(30);
    expect(answers.at(-1)!.headers.get("ratelimit-remaining")).toBe("0");
    expect((await read(a, peer)).status).toBe(429);
    expect((await read(b, peer)).status).toBe(429);
    // An id that does not exist is the same route: no fresh bucket for a made-up id.
    expect((await read("/api/v1/hardware/987654", peer)).status).toBe(429);
    expect((await read("/api/v1/hardware", peer)).status).toBe(200);
  });

  it("paths no route answers share one bucket per method", async () => {
    const peer = randomClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await read(`/api/v1/no-such-route-${i}`, peer)).status);
    expect(count(statuses.slice(0, 30), 404)).toBe(30);
    expect(statuses[30]).toBe(429);
    expect((await read("/api/v1/another/made-up/path", peer)).status).toBe(429);
    const post = await app.request("/api/v1/no-such-route", { method: "POST", headers: { [PEER_HEADER]: peer } });
    expect(post.status).toBe(404);
    expect((await read("/api/v1/services", peer)).status).toBe(200);
  });

  it("sign-in stays one bucket per client across login, jwt/login and register", async () => {
    const peer = { [PEER_HEADER]: randomClientIp() };
    const wrong = { email: "per-route@example.com", password: "not the password at all" };
    const attempt = (path: string, body: unknown = wrong) => app.request(`/api/v1/auth/${path}`, { method: "POST", ...json(body, peer) });
    const admitted = [
      await attempt("login"),
      await attempt("jwt/login"),
      await attempt("register", {}),
      await attempt("login"),
      await attempt("jwt/login"),
    ];
    expect(admitted.map((r) => r.status)).not.toContain(429);
    expect(admitted.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["4", "3", "2", "1", "0"]);
    for (const path of ["register", "login", "jwt/login"]) {
      const refused = await attempt(path);
      expect(refused.status, path).toBe(429);
      expect(await refused.json()).toMatchObject({ error_code: "RATE_LIMITED" });
    }
  });
});
