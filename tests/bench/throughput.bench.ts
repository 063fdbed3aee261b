// The hardening issue's throughput figure: the authenticated list page of 100 services served by the
// product, beside a bare Hono + postgres.js server (bare-server.ts) serving the same page from the same
// database with the same pool, both under wrk in one run. 16 connections: requests/s and their ratio
// (target >= 0.8); one connection: p50 (target < 1 ms for the product). Beside each, the CPU a request
// costs the server process and PostgreSQL (proc-cpu.ts), the figure that survives a busy machine.
// Only reports. BENCH_WRK_S sets the seconds each side is loaded at 16 connections (default 10).
import { PAGE_100 } from "./inventory.bench.ts";
import { BENCH_POOL_MAX, type BenchContext, type BenchRow, round, startServer } from "./harness.ts";
import { type CpuCost, metered } from "./proc-cpu.ts";
import { combine, wrk, WRK_MISSING, type WrkResult, wrkInstalled, type WrkRun } from "./wrk.ts";

const SECONDS = Number(process.env.BENCH_WRK_S ?? "10");

interface Side {
  url: string;
  headers: Record<string, string>;
  pid: number;
}

interface Loaded {
  load: WrkResult;
  cost?: CpuCost | undefined;
}

async function load(ctx: BenchContext, side: Side, run: Omit<WrkRun, "url" | "headers">): Promise<Loaded> {
  const { result, cost } = await metered(ctx.sql, side.pid, () => wrk({ url: side.url, headers: side.headers, ...run }));
  return { load: result, cost };
}

function total(runs: Loaded[]): Loaded {
  const costs = runs.map((r) => r.cost);
  const cost = costs.every((c) => c !== undefined)
    ? { serverMs: costs.reduce((s, c) => s + c.serverMs, 0), databaseMs: costs.reduce((s, c) => s + c.databaseMs, 0) }
    : undefined;
  return { load: combine(runs.map((r) => r.load)), cost };
}

/** CPU ms per request (server, database), or undefined without /proc. */
function perRequest({ load: l, cost }: Loaded): { server: number; database: number } | undefined {
  return cost && l.requests > 0 ? { server: cost.serverMs / l.requests, database: cost.databaseMs / l.requests } : undefined;
}

function row(name: string, r: Loaded, note: string): BenchRow {
  const l = r.load;
  const refused = l.non2xx + l.socketErrors > 0 ? `; NOT ALL 2xx: ${l.non2xx} non-2xx, ${l.socketErrors} socket errors` : "; all 2xx";
  const cpu = perRequest(r);
  const cpuNote = cpu ? `; CPU/request: server ${cpu.server.toFixed(2)} ms + database ${cpu.database.toFixed(2)} ms` : "";
  return {
    name,
    p50_ms: round(l.p50_ms),
    p99_ms: round(l.p99_ms),
    rps: Math.round(l.rps),
    note: `${note}${refused}, ${l.requests} requests, ${l.bytesPerAnswer} B/answer${cpuNote}`,
  };
}

function ratioNote(product: Loaded, bare: Loaded, halves: [number, number]): string {
  const bad = product.load.non2xx + product.load.socketErrors + bare.load.non2xx + bare.load.socketErrors;
  const p = perRequest(product);
  const b = perRequest(bare);
  const byCpu = p && b ? `; by CPU per request (server + database): ${((b.server + b.database) / (p.server + p.database)).toFixed(2)}` : "";
  return `${(product.load.rps / bare.load.rps).toFixed(2)} (target >= 0.8)${bad > 0 ? " (INVALID: some answers were not 2xx)" : ""}; halves ${halves.map((h) => h.toFixed(2)).join(", ")}${byCpu}`;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (!wrkInstalled()) return [{ name: "GET /services?limit=100 at 16 connections (product / bare)", note: WRK_MISSING }];
  const bare = await startServer({ DATABASE_URL: ctx.dbUrl, DB_POOL_MAX: BENCH_POOL_MAX, HOST: "127.0.0.1" }, "./bare-server.ts");
  try {
    // Same request bytes to both: the bare server ignores the credential.
    const headers = { Authorization: `Bearer ${ctx.token}` };
    const product: Side = { url: `${ctx.baseUrl}${PAGE_100}`, headers, pid: ctx.serverPid };
    const yardstick: Side = { url: `${bare.baseUrl}${PAGE_100}`, headers, pid: bare.pid };
    const at16 = { threads: 2, connections: 16 };
    // Warm-up: JIT, prepared statements on every pooled connection, PostgreSQL's buffers.
    for (const side of [product, yardstick]) await load(ctx, side, { ...at16, seconds: 3 });
    // A B B A in halves, so drift in the machine's load (other work on it) falls on both sides alike.
    const half = Math.max(1, SECONDS / 2);
    const p1 = await load(ctx, product, { ...at16, seconds: half });
    const b1 = await load(ctx, yardstick, { ...at16, seconds: half });
    const b2 = await load(ctx, yardstick, { ...at16, seconds: half });
    const p2 = await load(ctx, product, { ...at16, seconds: half });
    const p16 = total([p1, p2]);
    const b16 = total([b1, b2]);
    const p1c = await load(ctx, product, { threads: 1, connections: 1, seconds: half });
    const b1c = await load(ctx, yardstick, { threads: 1, connections: 1, seconds: half });
    const halves: [number, number] = [p1.load.rps / b1.load.rps, p2.load.rps / b2.load.rps];
    return [
      row("wrk -t2 -c16 GET /services?limit=100 (product, authenticated)", p16, `ABBA ${half} s x2`),
      row("wrk -t2 -c16 same page (bare Hono + postgres.js)", b16, `ABBA ${half} s x2`),
      { name: "product / bare at 16 connections", note: ratioNote(p16, b16, halves) },
      row("wrk -t1 -c1 GET /services?limit=100 (product)", p1c, "p50 target < 1 ms"),
      row("wrk -t1 -c1 same page (bare)", b1c, "one connection"),
    ];
  } finally {
    await bare.stop();
  }
}
