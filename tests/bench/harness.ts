// What every benchmark gets: a migrated PostgreSQL database seeded with the inventory of issue 4 (scaled
// by BENCH_SCALE), the real server started as its own process on a loopback port, an admin bearer token,
// and a direct postgres.js client for timing the bare SQL beside each figure.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { parseConfig } from "../../shared/config.ts";
import { CONNECTION_PARAMETERS } from "../../shared/db/database.ts";
import { openDatabase } from "../../runtime/database.ts";
import { applyMigrations } from "../../sidecar/startup/migrate.ts";
import { type NodeRuntime, openRuntime } from "../../runtime/node-deps.ts";
import { databaseUrl, PG_ADMIN_URL, TEST_VAULT_KEY } from "../helpers/env.ts";
import { seedInventory, type SeedCounts } from "./seed.ts";

export interface BenchRow {
  name: string;
  p50_ms?: number;
  p99_ms?: number;
  rps?: number;
  total_ms?: number;
  baseline_sql_ms?: number;
  /** The figure's target, where an issue sets one ("< 300 ms"), and whether it was met. */
  target?: string;
  note?: string;
}

export interface BenchContext {
  baseUrl: string;
  /** The server process's pid, for benchmarks that read its CPU time. */
  serverPid: number;
  token: string;
  sql: postgres.Sql;
  dbUrl: string;
  runtime: NodeRuntime;
  counts: SeedCounts;
  scale: number;
}

export const SCALE = Number(process.env.BENCH_SCALE ?? "1");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The product's pool size in every benchmark; a bare comparison server takes the same. */
export const BENCH_POOL_MAX = "10";

/**
 * Starts a server entry (`node bin/start.ts`, the all-in-one entry, unless told otherwise) as its
 * own process on a free loopback port and waits until its /api/v1/readyz answers.
 */
export async function startServer(
  env: Record<string, string>,
  entry = "../../bin/start.ts",
): Promise<{ baseUrl: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [fileURLToPath(new URL(entry, import.meta.url))], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error("the benchmark server exited during start");
    const ready = await fetch(`${baseUrl}/api/v1/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) {
      child.kill("SIGTERM");
      throw new Error("the benchmark server did not become ready in 60 s");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A fresh, migrated database for a benchmark, with a direct client; `drop` removes it. */
export async function createBenchDatabase(name: string): Promise<{ url: string; sql: postgres.Sql; drop(): Promise<void> }> {
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const url = databaseUrl(name);
  const migrator = await openDatabase(parseConfig({ DATABASE_URL: url, DB_POOL_MAX: "2" }));
  await applyMigrations(migrator);
  await migrator.provider.close();
  // The same session parameters as the server, so the bare figures are for the same SQL under the same settings.
  const sql = postgres(url, { max: 4, connection: CONNECTION_PARAMETERS, onnotice: () => {} });
  return {
    url,
    sql,
    drop: async () => {
      await sql.end({ timeout: 1 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

export async function openBench(): Promise<{ ctx: BenchContext; close(): Promise<void> }> {
  const bench = await createBenchDatabase(`cp_bench_${process.pid}`);
  const { sql, url: dbUrl } = bench;
  // The rate limiter stays on (its database store is part of every figure). The benchmark plays many
  // clients behind a trusted reverse proxy: each request carries its own X-Forwarded-For address.
  const env = {
    DATABASE_URL: dbUrl,
    HOST: "127.0.0.1",
    LOG_LEVEL: "error",
    SVC_SETUP_TOKEN: "bench-setup-token",
    SVC_VAULT_KEY: TEST_VAULT_KEY,
    DB_POOL_MAX: BENCH_POOL_MAX,
    TRUSTED_PROXIES: "127.0.0.1,::1",
  };
  let counts: SeedCounts;
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    counts = await seedInventory(sql, SCALE);
    // The server runs in its own process, as `npm start` would, so the load generator's CPU is not the server's.
    server = await startServer(env);
  } catch (e) {
    // A run that cannot start leaves no seeded database behind.
    await bench.drop();
    throw e;
  }
  const baseUrl = server.baseUrl;
  // An in-process runtime on the same database, for benchmarks that drive verbs and jobs directly.
  const runtime = await openRuntime(parseConfig({ ...env, PORT: "0" }, "bench"));
  runtime.deps.lifecycle.markReady();
  const init = await fetch(`${baseUrl}/api/v1/bootstrap/initialize`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": nextClient() },
    body: JSON.stringify({ email: "bench@example.com", password: "benchmark admin password", setup_token: "bench-setup-token" }),
  });
  const token = ((await init.json()) as { token: string }).token;
  return {
    ctx: { baseUrl, serverPid: server.pid, token, sql, dbUrl, runtime, counts, scale: SCALE },
    close: async () => {
      await server.stop();
      await runtime.close();
      await bench.drop();
    },
  };
}

/** Runs `fn` `n` times after `warm` warm-up calls; latency percentiles and requests per second. */
export async function measure(
  n: number,
  fn: (i: number) => Promise<unknown>,
  warm = Math.min(20, n),
): Promise<{ p50: number; p99: number; rps: number }> {
  for (let i = 0; i < warm; i++) await fn(i);
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return latencies(times, performance.now() - start);
}

/** p50 and p99 of call times, and calls per second over `totalMs`. */
export function latencies(times: number[], totalMs: number): { p50: number; p99: number; rps: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: round(pick(0.5)), p99: round(pick(0.99)), rps: Math.round((times.length / totalMs) * 1000) };
}

/**
 * Times two operations call by call in alternation (a, b, a, b, ...), so both see the same state of the
 * machine (caches, JIT, background work) and a drift between two separate loops cannot skew their ratio.
 */
export async function measurePair(
  n: number,
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
  warm = Math.min(20, n),
): Promise<[{ p50: number; p99: number; rps: number }, { p50: number; p99: number; rps: number }]> {
  for (let i = 0; i < warm; i++) {
    await a(i);
    await b(i);
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < n; i++)
    for (const [k, fn] of [a, b].entries()) {
      const t = performance.now();
      await fn(i);
      times[k]!.push(performance.now() - t);
    }
  const busy = (ts: number[]) => ts.reduce((x, y) => x + y, 0);
  return [latencies(times[0], busy(times[0])), latencies(times[1], busy(times[1]))];
}

export const round = (x: number) => Math.round(x * 100) / 100;

let client = 0;
/** A client address per request (documentation range 198.51.100.0/24 and beyond: only a header value). */
export function nextClient(): string {
  client = (client + 1) % 60_000;
  return `198.51.${100 + Math.floor(client / 250)}.${1 + (client % 250)}`;
}

async function send(ctx: BenchContext, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ctx.token}`,
      "x-forwarded-for": nextClient(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status}: ${await res.text()}`);
  return res;
}

/** A request whose answer the caller reads (parsed JSON). */
export async function api(ctx: BenchContext, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await send(ctx, method, path, body);
  return res.status === 204 ? null : res.json();
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * A timed request: done when the last byte of the answer has arrived, as wrk or autocannon count it.
 * node:http on a keep-alive agent, not fetch: undici's web streams cost the load generator about a
 * millisecond per request, and parsing a 400 kB JSON answer several more; neither is the server's time.
 */
export function hit(ctx: BenchContext, method: string, path: string, body?: unknown): Promise<number> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${ctx.baseUrl}${path}`, {
      method,
      agent,
      headers: {
        authorization: `Bearer ${ctx.token}`,
        "x-forwarded-for": nextClient(),
        ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const answer = Buffer.concat(chunks);
        const status = res.statusCode ?? 0;
        if (status >= 400) reject(new Error(`${method} ${path} -> ${status}: ${answer.toString("utf8").slice(0, 300)}`));
        else resolve(answer.byteLength);
      });
    });
    req.end(payload);
  });
}
