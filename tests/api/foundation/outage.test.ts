// Dependency outages without a restart (docs/architecture.md, API contracts, spec 7.3/7.4): the database cut off or its schema
// behind the build -> readyz 503 not_ready and writes 503 SERVICE_NOT_READY; Redis lost -> degraded,
// writes still admitted; each recovers on its own once the dependency is back. The app talks to
// PostgreSQL (and Redis) through a TCP proxy that the test cuts and restores.
import type { Hono } from "hono";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../../functions/deps.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { REDIS_URL } from "../../helpers/env.ts";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy.ts";
import { expectWriteAdmitted, type Instance, openInstance, readyzUntil, through } from "./outage-harness.ts";
import { freePort } from "../../helpers/free-port.ts";

let database: TestDatabase;
let pgProxy: TcpProxy;
let redisProxy: TcpProxy;
let sql: postgres.Sql;
const instances: Instance[] = [];

async function instance(env: Record<string, string>): Promise<Instance> {
  const made = await openInstance({ DATABASE_URL: database.url, ...env });
  instances.push(made);
  return made;
}

async function expectWriteRefused(app: Hono<AppEnv>, health: string) {
  const started = Date.now();
  const res = await app.request("/api/v1/tenants", { method: "POST" });
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(await res.json()).toMatchObject({ error_code: "SERVICE_NOT_READY", health });
  expect(Date.now() - started).toBeLessThan(5000);
}

beforeAll(async () => {
  database = await createTestDatabase();
  const pg = new URL(database.url);
  pgProxy = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
  const redis = new URL(REDIS_URL);
  redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
});

afterEach(() => {
  pgProxy.restore();
  redisProxy.restore();
});

afterAll(async () => {
  await sql?.end({ timeout: 1 });
  for (const i of instances) await i.runtime.close();
  await pgProxy?.close();
  await redisProxy?.close();
  await database?.drop();
});

describe("database outage", () => {
  let t: Instance;
  beforeAll(async () => {
    t = await instance({ DATABASE_URL: through(pgProxy, database.url) });
  });

  it("is ready and admits writes while PostgreSQL answers", async () => {
    const res = await t.app.request("/api/v1/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      ready: true,
      health: "ready",
      checks: { database: "ok", migrations: "ok" },
      writes_permitted: true,
    });
    await expectWriteAdmitted(t.app);
  });

  it("cut: readyz 503 not_ready and writes 503 SERVICE_NOT_READY, without hanging", async () => {
    pgProxy.cut();
    const started = Date.now();
    const res = await t.app.request("/api/v1/readyz");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      ready: false,
      state: "ready",
      health: "not_ready",
      checks: { database: "error" },
      writes_permitted: false,
    });
    await expectWriteRefused(t.app, "not_ready");
    // Reads that touch no database are still served.
    expect((await t.app.request("/api/v1/livez")).status).toBe(200);
  });

  it("restored: ready again and writes admitted, with no restart", async () => {
    pgProxy.cut();
    expect((await t.app.request("/api/v1/readyz")).status).toBe(503);
    pgProxy.restore();
    const { status, body } = await readyzUntil(t.app, (s) => s === 200);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ready: true, health: "ready", checks: { database: "ok", migrations: "ok" }, writes_permitted: true });
    await expectWriteAdmitted(t.app);
  });
});

describe("schema behind the build", () => {
  let t: Instance;
  beforeAll(async () => {
    t = await instance({});
  });

  it("readyz 503 migrations behind, writes refused; recovers once the migration is back", async () => {
    const [newest] = await sql<{ id: number; hash: string; created_at: string }[]>`
      delete from drizzle.__drizzle_migrations
      where id = (select id from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1)
      returning id, hash, created_at`;
    expect(newest).toBeDefined();
    try {
      const res = await t.app.request("/api/v1/readyz");
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        ready: false,
        health: "not_ready",
        checks: { database: "ok", migrations: "behind" },
        writes_permitted: false,
      });
      await expectWriteRefused(t.app, "not_ready");
    } finally {
      await sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`;
    }
    const res = await t.app.request("/api/v1/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ready: true, health: "ready", checks: { migrations: "ok" } });
    await expectWriteAdmitted(t.app);
  });
});

describe("redis outage", () => {
  it("Redis unreachable from the start: ready but degraded, writes admitted", async () => {
    const t = await instance({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const res = await t.app.request("/api/v1/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ready: true,
      state: "ready",
      health: "degraded",
      checks: { database: "ok", migrations: "ok", redis: "error" },
      degraded: ["redis"],
      writes_permitted: true,
    });
    await expectWriteAdmitted(t.app);
  });

  it("Redis cut then restored: degraded, then ready again with no restart", async () => {
    const t = await instance({ REDIS_URL: `redis://${redisProxy.address}` });
    const before = await readyzUntil(t.app, (s, b) => s === 200 && b.health === "ready");
    expect(before.body).toMatchObject({ health: "ready", checks: { redis: "ok" } });

    redisProxy.cut();
    const cut = await readyzUntil(t.app, (_s, b) => b.health === "degraded");
    expect(cut.status).toBe(200);
    expect(cut.body).toMatchObject({
      ready: true,
      health: "degraded",
      degraded: ["redis"],
      checks: { redis: "error" },
      writes_permitted: true,
    });
    await expectWriteAdmitted(t.app);

    redisProxy.restore();
    // ioredis reconnects by itself (retry interval up to 2 s).
    const back = await readyzUntil(t.app, (_s, b) => b.health === "ready");
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ health: "ready", degraded: [], checks: { redis: "ok" } });
  });
});
