// Issue 5: blast radius over the issue-4 inventory, beside the same statement run directly through
// postgres.js. A rack switch (node 1: 19 nodes connected, shared networks) impacts thousands of assets;
// an ordinary node a few dozen. Issue 37's target for the switch (5,179 impacted of 100,000 services)
// is printed beside it, with the CPU each request costs the server and PostgreSQL (read from /proc:
// wall time swings with what else the 2 cores run, CPU per request barely does).
import { PgDialect } from "drizzle-orm/pg-core";
import { blastRadiusQuery } from "../../shared/verbs/intelligence/blast-radius.ts";
import { api, type BenchContext, type BenchRow, hit, measure, round } from "./harness.ts";
import { metered } from "./proc-cpu.ts";

const N = 50;
const WARM = 5;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dialect = new PgDialect();
  for (const id of [1, ctx.counts.hardware - 5]) {
    const path = `/api/v1/intel/blast-radius/hardware/${id}`;
    const r = (await api(ctx, "GET", path)) as { total_impact_count: number; impacted_services: unknown[] };
    const { result: m, cost } = await metered(ctx.sql, ctx.serverPid, () => measure(N, () => hit(ctx, "GET", path), WARM));
    const q = dialect.sqlToQuery(blastRadiusQuery("hardware", id));
    const bare = await measure(N, () => ctx.sql.unsafe(q.sql, q.params as never[]), WARM);
    const per = (ms: number) => round(ms / (N + WARM));
    const cpu = cost ? `; CPU per request: server ${per(cost.serverMs)} ms, database ${per(cost.databaseMs)} ms` : "";
    const target = id === 1 ? "; target p50 < 8 ms (issue 37)" : "";
    rows.push({
      name: `GET ${path.replace("/api/v1", "")}`,
      p50_ms: m.p50,
      p99_ms: m.p99,
      baseline_sql_ms: bare.p50,
      note: `${r.total_impact_count} impacted assets (${r.impacted_services.length} services)${target}${cpu}`,
    });
  }
  return rows;
}
