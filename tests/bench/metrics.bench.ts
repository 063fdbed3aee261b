// Issue 5: a metrics scrape (GET /api/v1/metrics over real HTTP with a read-only API token, the streamed
// body read to the end) on the inventory benchmark data cut to 10,000 services (seedInventory at 0.1),
// beside the bare SQL it rests on (the one counts query and the per-resource keyset pages through
// postgres.js), and the memory it costs; then the same scrape on the harness's full-size inventory,
// whose peak memory shows the stream staying bounded. Target: p50 under 250 ms at 10,000 services (issue
// 5), now under 25 ms (issue 37), printed beside the CPU a scrape costs this process (the sidecar serves
// it in-process here, so its client's reading is in the figure) and PostgreSQL, read from /proc.
// `npm run bench metrics`; with `node --expose-gc` the memory figures are live heap, not garbage.
import { TEST_VAULT_KEY } from "../helpers/env.ts";
import type { Server } from "node:http";
import { loadavg } from "node:os";
import { serve } from "@hono/node-server";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type postgres from "postgres";
import { createApp } from "../../functions/app.ts";
import { metricsRoutes } from "../../functions/routes/metrics.ts";
import { parseConfig } from "../../shared/config.ts";
import { countsQuery } from "../../shared/metrics/counts.ts";
import { PER_RESOURCE_FAMILIES } from "../../shared/metrics/per-resource.ts";
import { SCRAPE_PAGE_SIZE } from "../../shared/metrics/scrape.ts";
import { type NodeRuntime, openRuntime } from "../../runtime/node-deps.ts";
import { type BenchContext, type BenchRow, createBenchDatabase, measure, nextClient, round } from "./harness.ts";
import { metered } from "./proc-cpu.ts";
import { seedInventory } from "./seed.ts";

const SERVICES = 10_000;
const SETUP = "metrics-bench-setup-token";
const MB = 1024 * 1024;
const dialect = new PgDialect();

interface Sidecar {
  baseUrl: string;
  close(): Promise<void>;
}

/** The app as bin/start.ts builds it (functions app + the metrics route) on a loopback port. */
async function serveSidecar(runtime: NodeRuntime): Promise<Sidecar> {
  const app = createApp(runtime.deps);
  metricsRoutes(app);
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const address = server.address();
  return {
    baseUrl: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function call(baseUrl: string, method: string, path: string, token?: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      "x-forwarded-for": nextClient(),
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** One scrape read chunk by chunk as Prometheus would; `onChunk` sees the process between chunks. */
async function scrape(baseUrl: string, token: string, onChunk?: () => void): Promise<{ bytes: number; lines: number }> {
  const res = await fetch(`${baseUrl}/api/v1/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`scrape -> ${res.status}: ${await res.text()}`);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let bytes = 0;
  let lines = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    bytes += r.value.byteLength;
    for (let i = r.value.indexOf(10); i !== -1; i = r.value.indexOf(10, i + 1)) lines++;
    onChunk?.();
  }
  return { bytes, lines };
}

/** The SQL a scrape runs, straight through postgres.js: the counts query, then every family's pages. */
async function bareSql(sql: postgres.Sql): Promise<void> {
  const run = (q: SQL) => {
    const { sql: text, params } = dialect.sqlToQuery(q);
    return sql.unsafe<{ id: number }[]>(text, params as postgres.ParameterOrJSON<never>[]);
  };
  await run(countsQuery());
  for (const f of PER_RESOURCE_FAMILIES) {
    for (let after = 0; ; ) {
      const rows = await run(f.query(after, SCRAPE_PAGE_SIZE));
      if (rows.length < SCRAPE_PAGE_SIZE) break;
      after = Number(rows.at(-1)!.id);
    }
  }
}

/** Peak memory above the level before, over `n` scrapes; with --expose-gc collected at every chunk (live memory). */
async function memory(baseUrl: string, token: string, n: number): Promise<string> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  let heap = before.heapUsed;
  let rss = before.rss;
  let body = 0;
  for (let i = 0; i < n; i++) {
    body = (
      await scrape(baseUrl, token, () => {
        gc?.();
        const m = process.memoryUsage();
        heap = Math.max(heap, m.heapUsed);
        rss = Math.max(rss, m.rss);
      })
    ).bytes;
  }
  gc?.();
  const after = process.memoryUsage();
  return (
    `body ${round(body / MB)} MB; ${gc ? "live" : "uncollected (no --expose-gc)"} heap peak +${round((heap - before.heapUsed) / MB)} MB, ` +
    `rss peak +${round((rss - before.rss) / MB)} MB, heap after ${round((after.heapUsed - before.heapUsed) / MB)} MB`
  );
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  // A database of its own holding the benchmark inventory at exactly 10,000 services.
  const db = await createBenchDatabase(`cp_bench_metrics_${process.pid}`);
  const { url, sql } = db;
  const counts = await seedInventory(sql, SERVICES / 100_000);
  const runtime = await openRuntime(
    parseConfig(
      {
        SVC_VAULT_KEY: TEST_VAULT_KEY,
        DATABASE_URL: url,
        LOG_LEVEL: "error",
        SVC_SETUP_TOKEN: SETUP,
        DB_POOL_MAX: "4",
        TRUSTED_PROXIES: "127.0.0.1,::1",
      },
      "bench",
    ),
  );
  runtime.deps.lifecycle.markReady();
  const small = await serveSidecar(runtime);
  const full = await serveSidecar(ctx.runtime);
  try {
    const jwt = (
      await call(small.baseUrl, "POST", "/api/v1/bootstrap/initialize", undefined, {
        email: "bench@example.com",
        password: "benchmark admin password",
        setup_token: SETUP,
      })
    ).token as string;
    const token = (await call(small.baseUrl, "POST", "/api/v1/auth/api-token", jwt, { label: "prometheus", scopes: ["read:*"] }))
      .token as string;

    let size = { bytes: 0, lines: 0 };
    const { result: http, cost } = await metered(sql, process.pid, () =>
      measure(30, async () => (size = await scrape(small.baseUrl, token)), 3),
    );
    const cpuOf = (c: typeof cost) =>
      c ? `CPU per run: this process ${round(c.serverMs / 33)} ms, database ${round(c.databaseMs / 33)} ms` : "";
    const { result: bare, cost: bareCost } = await metered(sql, process.pid, () => measure(30, () => bareSql(sql), 3));
    const smallMemory = await memory(small.baseUrl, token, 3);

    const fullHttp = await measure(3, () => scrape(full.baseUrl, ctx.token), 1);
    const fullBare = await measure(3, () => bareSql(ctx.sql), 1);
    const fullMemory = await memory(full.baseUrl, ctx.token, 1);

    const load = `load average ${loadavg()[0]!.toFixed(1)}`;
    return [
      {
        name: `GET /api/v1/metrics, ${counts.services.toLocaleString("en")} services (streamed)`,
        p50_ms: http.p50,
        p99_ms: http.p99,
        rps: http.rps,
        baseline_sql_ms: bare.p50,
        note: `${size.lines} lines; ${round(http.p50 / bare.p50)}x the bare SQL; target p50 < 25 ms (issue 37; issue 5: < 250 ms); ${cpuOf(cost)}; ${smallMemory}; ${load}`,
      },
      {
        name: `... its bare SQL (1 counts query + keyset pages of ${SCRAPE_PAGE_SIZE})`,
        p50_ms: bare.p50,
        p99_ms: bare.p99,
        note: `the rows parsed by postgres.js, no text built; ${cpuOf(bareCost)}`,
      },
      {
        name: `GET /api/v1/metrics, ${ctx.counts.services.toLocaleString("en")} services (harness inventory)`,
        p50_ms: fullHttp.p50,
        p99_ms: fullHttp.p99,
        baseline_sql_ms: fullBare.p50,
        note: `memory stays bounded as the inventory grows: ${fullMemory}`,
      },
    ];
  } finally {
    await small.close();
    await full.close();
    await runtime.close();
    await db.drop();
  }
}
