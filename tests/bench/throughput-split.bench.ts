// Issue 37's throughput rows, measured as an operator deploys: the split deployment's configuration
// (DATABASE_URL on PostgreSQL, REDIS_URL so the rate limiter runs on Redis, TRUSTED_PROXIES=127.0.0.1,
// LOG_LEVEL=error), 2,000 services, the cheap page GET /services?limit=100&offset=0&sort=name&direction=asc
// with a bearer API token (read:*), each request with its own X-Forwarded-For (many clients, none
// throttled), beside the bare Hono + postgres.js app (bare-server.ts: pool 10, the page's SELECT and
// COUNT in parallel, c.json). wrk -t2 -c16 for BENCH_WRK_S seconds (default 8), product and bare app
// alternating twice, medians; then -t1 -c1. Targets: throughput >= 0.85 of the bare app's, p50 at one
// connection <= bare + 0.15 ms. Beside each, the CPU a request costs the server and PostgreSQL.
import { TEST_VAULT_KEY } from "../helpers/env.ts";
import { BENCH_POOL_MAX, type BenchContext, type BenchRow, createBenchDatabase, round, startServer } from "./harness.ts";
import { metered } from "./proc-cpu.ts";
import { wrk, WRK_MISSING, type WrkResult, wrkInstalled } from "./wrk.ts";

const SECONDS = Number(process.env.BENCH_WRK_S ?? "8");
const SERVICES = 2_000;
// wrk-clients.lua appends &offset=0 (one page) and a new X-Forwarded-For per request.
const PAGE = "/api/v1/services?limit=100&sort=name&direction=asc";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

interface Run {
  load: WrkResult;
  cpuMs?: { server: number; database: number } | undefined;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function cpuNote(runs: Run[]): string {
  const per = runs.flatMap((r) => (r.cpuMs && r.load.requests > 0 ? [(r.cpuMs.server + r.cpuMs.database) / r.load.requests] : []));
  const server = runs.flatMap((r) => (r.cpuMs && r.load.requests > 0 ? [r.cpuMs.server / r.load.requests] : []));
  return per.length ? `; CPU/request ${median(per).toFixed(3)} ms (server ${median(server).toFixed(3)})` : "";
}

function valid(runs: Run[]): string {
  const bad = runs.reduce((n, r) => n + r.load.non2xx + r.load.socketErrors, 0);
  return bad > 0 ? `; INVALID: ${bad} answers not 2xx` : "; all 2xx";
}

export async function run(_ctx: BenchContext): Promise<BenchRow[]> {
  if (!wrkInstalled()) return [{ name: "cheap list page, split deployment (product / bare)", note: WRK_MISSING }];
  const db = await createBenchDatabase(`cp_bench_split_${process.pid}`);
  const stops: (() => Promise<void>)[] = [];
  try {
    await db.sql`insert into services (name, slug, status) select 'svc-' || lpad(i::text, 5, '0'), 'svc-' || lpad(i::text, 5, '0'), 'running' from generate_series(1, ${SERVICES}) i`;
    await db.sql`analyze services`;
    const product = await startServer({
      DATABASE_URL: db.url,
      REDIS_URL,
      TRUSTED_PROXIES: "127.0.0.1",
      LOG_LEVEL: "error",
      HOST: "127.0.0.1",
      DB_POOL_MAX: BENCH_POOL_MAX,
      SVC_SETUP_TOKEN: "bench-setup-token",
      SVC_VAULT_KEY: TEST_VAULT_KEY,
    });
    stops.push(product.stop);
    const bare = await startServer({ DATABASE_URL: db.url, DB_POOL_MAX: BENCH_POOL_MAX, HOST: "127.0.0.1" }, "./bare-server.ts");
    stops.push(bare.stop);
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${product.baseUrl}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": "198.18.255.1",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { token: string };
    };
    const { token: jwt } = await post("/api/v1/bootstrap/initialize", {
      email: "bench@example.com",
      password: "benchmark admin password",
      setup_token: "bench-setup-token",
    });
    const { token } = await post("/api/v1/auth/api-token", { label: "bench read", scopes: ["read:*"] }, jwt);
    const headers = { Authorization: `Bearer ${token}` };
    const sides = {
      product: { url: `${product.baseUrl}${PAGE}`, pid: product.pid },
      bare: { url: `${bare.baseUrl}${PAGE}`, pid: bare.pid },
    };
    const load = async (side: keyof typeof sides, threads: number, connections: number, seconds: number): Promise<Run> => {
      const { result, cost } = await metered(db.sql, sides[side].pid, () =>
        wrk({ url: sides[side].url, headers, threads, connections, seconds, pages: 1 }),
      );
      return { load: result, cpuMs: cost ? { server: cost.serverMs, database: cost.databaseMs } : undefined };
    };
    for (const side of ["product", "bare"] as const) await load(side, 2, 16, 3);
    const p: Run[] = [];
    const b: Run[] = [];
    for (let i = 0; i < 2; i++) {
      p.push(await load("product", 2, 16, SECONDS));
      b.push(await load("bare", 2, 16, SECONDS));
    }
    const p1 = await load("product", 1, 1, SECONDS);
    const b1 = await load("bare", 1, 1, SECONDS);
    const rps = (runs: Run[]) => median(runs.map((r) => r.load.rps));
    const ratio = rps(p) / rps(b);
    const p50 = p1.load.p50_ms;
    const bare50 = b1.load.p50_ms;
    return [
      {
        name: `split deployment, ${SERVICES} services: wrk -t2 -c16 cheap page (product, API token)`,
        rps: Math.round(rps(p)),
        p50_ms: round(median(p.map((r) => r.load.p50_ms))),
        note: `median of 2 x ${SECONDS} s${valid(p)}${cpuNote(p)}`,
      },
      {
        name: "same page, bare Hono + postgres.js",
        rps: Math.round(rps(b)),
        p50_ms: round(median(b.map((r) => r.load.p50_ms))),
        note: `median of 2 x ${SECONDS} s${valid(b)}${cpuNote(b)}`,
      },
      {
        name: "product / bare at 16 connections",
        note: `${ratio.toFixed(2)} (target >= 0.85); runs ${p.map((r, i) => (r.load.rps / b[i]!.load.rps).toFixed(2)).join(", ")}`,
      },
      {
        name: "wrk -t1 -c1 cheap page (product)",
        p50_ms: round(p50),
        p99_ms: round(p1.load.p99_ms),
        rps: Math.round(p1.load.rps),
        note: `p50 - bare p50 = ${(p50 - bare50).toFixed(3)} ms (target <= 0.15)${valid([p1])}${cpuNote([p1])}`,
      },
      {
        name: "wrk -t1 -c1 cheap page (bare)",
        p50_ms: round(bare50),
        p99_ms: round(b1.load.p99_ms),
        rps: Math.round(b1.load.rps),
        note: `one connection${cpuNote([b1])}`,
      },
    ];
  } finally {
    for (const stop of stops.reverse()) await stop();
    await db.drop();
  }
}
