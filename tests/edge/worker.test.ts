// The functions app inside workerd (miniflare), built by scripts/build-edge.ts exactly as deployed,
// against the same PostgreSQL as the API suites.
import type { Readable } from "node:stream";
import type { Miniflare } from "miniflare";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { buildBundle, type EdgeBundle, openConnectionsAfterWait, startWorker, wranglerAssets } from "./harness.ts";

const BASE = "http://edge.test";
const VERSION = "0.0.0-edge";

/**
 * readyz until it answers 200 (at most 5 tries, 0.5 s apart). The probe allows each query 2 s; on a
 * loaded 2-core machine the first connection of a cold isolate can miss that once. The per-request
 * client itself is proven by the repeated bootstrap-status requests, which are not retried.
 */
async function readyz(get: (path: string) => Promise<{ status: number; json(): Promise<unknown> }>) {
  let last = { status: 0, body: undefined as unknown };
  for (let i = 0; i < 5; i++) {
    const res = await get("/api/v1/readyz");
    last = { status: res.status, body: await res.json() };
    if (last.status === 200) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return last;
}

let bundle: EdgeBundle;
let database: TestDatabase;

beforeAll(async () => {
  // Both in parallel, each kept as soon as it exists so afterAll cleans up whichever succeeded.
  const results = await Promise.allSettled([buildBundle().then((b) => (bundle = b)), createTestDatabase().then((d) => (database = d))]);
  for (const r of results) if (r.status === "rejected") throw r.reason;
}, 120_000);

afterAll(async () => {
  await database?.drop();
  await bundle?.remove();
});

describe("worker with DATABASE_URL", () => {
  let mf: Miniflare;
  const get = (path: string, init?: RequestInit) => mf.dispatchFetch(`${BASE}${path}`, init as never);

  beforeAll(async () => {
    mf = startWorker(bundle, { bindings: { DATABASE_URL: database.url, APP_VERSION: VERSION, LOG_LEVEL: "warn" } });
    await mf.ready;
  }, 120_000);
  afterAll(async () => mf?.dispose());

  it("livez answers alive, also to HEAD", async () => {
    const res = await get("/api/v1/livez");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "alive" });
    expect(typeof body.uptime_s).toBe("number");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const head = await get("/api/v1/livez", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("startupz is started at once: a worker has no lifespan", async () => {
    const res = await get("/api/v1/startupz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ started: true, state: "ready" });
  });

  it("readyz probes the database and the migration level from inside workerd", async () => {
    const { status, body } = await readyz(get);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({
      ready: true,
      state: "ready",
      health: "ready",
      checks: { database: "ok", migrations: "ok" },
      degraded: [],
      writes_permitted: true,
    });
  });

  it("serves the OpenAPI document with the version binding", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(VERSION);
    expect(doc.paths).toHaveProperty("/api/v1/readyz");
    expect(doc.paths).toHaveProperty("/api/v1/bootstrap/status");
  });

  it("answers a database-backed route on every request, not only the first", async () => {
    // A postgres.js client shared across requests fails on the second one in workerd.
    for (let i = 0; i < 3; i++) {
      const res = await get("/api/v1/bootstrap/status");
      expect(res.status, `request ${i + 1}`).toBe(200);
      expect(await res.json()).toEqual({ bootstrapped: false, needs_bootstrap: true });
    }
  });

  it("answers concurrent database-backed requests", async () => {
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => get(i % 2 ? "/api/v1/readyz" : "/api/v1/bootstrap/status")));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await Promise.all(all.map((r) => r.arrayBuffer()));
  });

  it("leaves no database connection open once the responses are done", async () => {
    expect(await openConnectionsAfterWait(database.name)).toBe(0);
  });

  it("answers an unknown API path with the JSON 404 envelope", async () => {
    const res = await get("/api/v1/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ error_code: "RESOURCE_NOT_FOUND" });
  });

  it("draws a public monitor's SVG badge (badge-maker's width tables load in workerd)", async () => {
    const db = postgres(database.url, { max: 1, onnotice: () => {} });
    let id = 0;
    try {
      const [row] = await db<{ id: number }[]>`
        insert into monitors (name, check_type, host, status, badge_public) values ('edge', 'tcp', '127.0.0.1', 'up', true) returning id`;
      id = row!.id;
    } finally {
      await db.end();
    }
    const res = await get(`/api/v1/badges/monitors/${id}/status.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toContain("<title>status: up</title>");
  });

  it("renders a status page's incident Markdown and its Atom feed (markdown-it, sanitize-html and feed load in workerd)", async () => {
    const db = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const [page] = await db<{ id: number }[]>`
        insert into status_pages (slug, title, published) values ('edge-page', 'Edge page', true) returning id`;
      const [inc] = await db<{ id: number }[]>`
        insert into status_page_incidents (page_id, public_key, title, status, impact, source, published_at)
        values (${page!.id}, 'edgekey12345', 'Edge incident', 'identified', 'minor', 'operator', now()) returning id`;
      await db`insert into status_page_incident_updates (incident_id, status, body)
        values (${inc!.id}, 'identified', ${"**Found** it <script>alert(1)</script> [x](javascript:alert(1))"})`;
    } finally {
      await db.end();
    }
    const html = await (await get("/status/edge-page")).text();
    expect(html).toContain("<strong>Found</strong> it &lt;script&gt;");
    expect(html).not.toContain("<script>");
    const feed = await get("/status/edge-page/feed.atom");
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toMatch(/^application\/atom\+xml/);
    expect(await feed.text()).toContain('<title type="html"><![CDATA[Edge incident (Identified)]]></title>');
  });

  it("answers POST /api/v1/tenants with 410 after the write guard admits it", async () => {
    const res = await get("/api/v1/tenants", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ error_code: "GONE" });
  });
});

describe("worker with Hyperdrive and the static assets of wrangler.toml", () => {
  let mf: Miniflare;
  const get = (path: string) => mf.dispatchFetch(`${BASE}${path}`);

  beforeAll(async () => {
    // Hyperdrive wants a password in the URL; the test server trusts any.
    const url = new URL(database.url);
    url.password = "unused";
    mf = startWorker(bundle, {
      hyperdrives: { HYPERDRIVE: url.toString() },
      bindings: { LOG_LEVEL: "warn" },
      assets: wranglerAssets(bundle.assets),
    });
    await mf.ready;
  }, 120_000);
  afterAll(async () => mf?.dispose());

  it("uses the Hyperdrive connection string as DATABASE_URL", async () => {
    expect(await readyz(get)).toMatchObject({
      status: 200,
      body: { ready: true, checks: { database: "ok", migrations: "ok" } },
    });
    const status = await get("/api/v1/bootstrap/status");
    expect(await status.json()).toEqual({ bootstrapped: false, needs_bootstrap: true });
  });

  it("reports the VERSION file's version when APP_VERSION is not bound", async () => {
    const doc = (await (await get("/api/openapi.json")).json()) as { info: { version: string } };
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.info.version).not.toBe("0.0.0-unknown");
  });

  it("serves the documentation pages and their scripts with no CDN", async () => {
    const page = await get("/api/docs");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("/api/docs/assets/scalar.js");
    // Scalar's cloud-only features (Ask AI, Generate MCP, Deploy) are switched off: they cannot work offline.
    expect(html.replace(/\s/g, "")).toContain(
      '"agent":{"disabled":true},"mcp":{"disabled":true},"showDeveloperTools":"never","telemetry":false',
    );
    for (const name of ["scalar.js", "redoc.js"]) {
      const res = await get(`/api/docs/assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("content-type"), name).toMatch(/javascript/);
      expect((await res.arrayBuffer()).byteLength, name).toBeGreaterThan(100_000);
    }
  });
});

describe("worker without a database binding", () => {
  let mf: Miniflare;
  const lines: string[] = [];
  const collect = (stream: Readable) => stream.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n")));

  beforeAll(async () => {
    mf = startWorker(bundle, {
      bindings: { APP_VERSION: VERSION },
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        collect(stdout);
        collect(stderr);
      },
    });
    await mf.ready;
  }, 120_000);
  afterAll(async () => mf?.dispose());

  it("answers every request with the 500 envelope naming the missing binding, logged once", async () => {
    for (const [path, method] of [
      ["/api/v1/livez", "GET"],
      ["/api/v1/readyz", "GET"],
      ["/api/v1/tenants", "POST"],
    ] as const) {
      const res = await mf.dispatchFetch(`${BASE}${path}`, { method });
      expect(res.status, path).toBe(500);
      expect(res.headers.get("content-type"), path).toMatch(/application\/json/);
      const body = (await res.json()) as { error_code: string; detail: string };
      expect(body.error_code).toBe("INTERNAL_SERVER_ERROR");
      expect(body.detail).toContain("DATABASE_URL");
      expect(body.detail).toContain("HYPERDRIVE");
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.filter((l) => l.includes("worker misconfigured"))).toHaveLength(1);
  });
});

describe("worker with an invalid binding", () => {
  it("answers the 500 envelope naming the variable", async () => {
    const mf = startWorker(bundle, { bindings: { DATABASE_URL: database.url, LOG_LEVEL: "loud" } });
    try {
      const res = await mf.dispatchFetch(`${BASE}/api/v1/livez`);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { error_code: string; detail: string };
      expect(body).toMatchObject({ error_code: "INTERNAL_SERVER_ERROR" });
      expect(body.detail).toContain("LOG_LEVEL");
    } finally {
      await mf.dispose();
    }
  }, 60_000);
});
