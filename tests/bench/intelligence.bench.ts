// Issue 5: blast radius over the issue-4 inventory, beside the same statement run directly through
// postgres.js. A rack switch (node 1: 19 nodes connected, shared networks) impacts thousands of assets;
// an ordinary node a few dozen.
import { PgDialect } from "drizzle-orm/pg-core";
import { blastRadiusQuery } from "../../shared/verbs/intelligence/blast-radius.ts";
import { api, type BenchContext, type BenchRow, hit, measure } from "./harness.ts";

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dialect = new PgDialect();
  for (const id of [1, ctx.counts.hardware - 5]) {
    const path = `/api/v1/intel/blast-radius/hardware/${id}`;
    const r = (await api(ctx, "GET", path)) as { total_impact_count: number; impacted_services: unknown[] };
    const m = await measure(50, () => hit(ctx, "GET", path), 5);
    const q = dialect.sqlToQuery(blastRadiusQuery("hardware", id));
    const bare = await measure(50, () => ctx.sql.unsafe(q.sql, q.params as never[]), 5);
    rows.push({
      name: `GET ${path.replace("/api/v1", "")}`,
      p50_ms: m.p50,
      p99_ms: m.p99,
      baseline_sql_ms: bare.p50,
      note: `${r.total_impact_count} impacted assets (${r.impacted_services.length} services)`,
    });
  }
  return rows;
}
