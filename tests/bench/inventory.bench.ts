// Issue 4: list pages (25 and 100 rows, sorted and filtered), a detail, a create, search and the graph,
// each through the real HTTP server; the list page of 100 beside the same SQL run directly.
import { request } from "node:http";
import { PgDialect } from "drizzle-orm/pg-core";
import { hitStatement } from "../../shared/ratelimit/database-store.ts";
import { api, type BenchContext, type BenchRow, hit, measure, measurePair, nextClient, round } from "./harness.ts";

/** The list page of 100 rows, sorted and filtered; `&offset=` follows. */
export const PAGE_100 = "/api/v1/services?limit=100&sort=name&direction=desc&environment=production";

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const hw = ctx.counts.hardware;
  const add = (name: string, m: { p50: number; p99: number; rps: number }, extra: Partial<BenchRow> = {}) =>
    rows.push({ name, p50_ms: m.p50, p99_ms: m.p99, rps: m.rps, ...extra });

  add(
    "GET /hardware?limit=25&sort=name&status=up",
    await measure(300, (i) => hit(ctx, "GET", `/api/v1/hardware?limit=25&sort=name&status=up&offset=${(i % 40) * 25}`)),
  );

  const page100 = (i: number) => `${PAGE_100}&offset=${(i % 50) * 100}`;
  // The same two statements the list verb runs, straight through postgres.js.
  const page = (i: number) =>
    Promise.all([
      ctx.sql`select * from services where environment = 'production' order by name desc, id desc limit 100 offset ${(i % 50) * 100}`,
      ctx.sql`select count(*) from services where environment = 'production'`,
    ]);
  // Steady state, the two sides timed call by call in alternation: 200 warm-up pairs (the server's code
  // paths compiled by the JIT, the pool's statements prepared), then 1,000 timed pairs.
  const [http100, sql100] = await measurePair(1000, (i) => hit(ctx, "GET", page100(i)), page, 200);
  // And every statement the request runs, as it runs them: its credential is remembered by the
  // process (CREDENTIAL_CACHE_S), and a read's rate-limit hit goes beside the page instead of before it.
  const dialect = new PgDialect();
  const requestSql = await measure(
    1000,
    async (i) => {
      const now = Date.now();
      const window = Math.floor(now / 60_000) * 60_000;
      const hitSql = dialect.sqlToQuery(
        hitStatement({
          key: `bench-bare:${i}`,
          current: new Date(window).toISOString(),
          previous: new Date(window - 60_000).toISOString(),
          weight: 1 - (now - window) / 60_000,
          limit: 1000,
        }),
      );
      await Promise.all([ctx.sql.unsafe(hitSql.sql, hitSql.params as never[], { prepare: true }), page(i)]);
    },
    200,
  );
  add("GET /services?limit=100 sorted+filtered", http100, {
    baseline_sql_ms: sql100.p50,
    note: `${(http100.p50 / sql100.p50).toFixed(2)}x the page's SQL (target <= 2x, p50 < 10 ms); ${(http100.p50 / requestSql.p50).toFixed(2)}x all the request's SQL (rate limit beside the page: ${requestSql.p50} ms)`,
  });

  add("GET /hardware/{id}", await measure(500, (i) => hit(ctx, "GET", `/api/v1/hardware/${1 + ((i * 7919) % hw)}`)));
  add(
    "POST /hardware",
    await measure(200, (i) =>
      hit(ctx, "POST", "/api/v1/hardware", { name: `bench-new-${process.pid}-${i}`, role: "hypervisor", tags: ["bench"] }),
    ),
  );
  add("GET /search?q=node-0042", await measure(100, () => hit(ctx, "GET", "/api/v1/search?q=node-0042")));

  const graph = await measure(5, () => hit(ctx, "GET", "/api/v1/graph/topology"), 1);
  const sizes = (await api(ctx, "GET", "/api/v1/graph/topology?types=hardware,network")) as { counts: { nodes: number; edges: number } };
  add("GET /graph/topology (everything)", graph, {
    note: `all ${ctx.counts.hardware + ctx.counts.compute_units + ctx.counts.services + ctx.counts.storage + ctx.counts.networks}+ nodes`,
  });
  add(
    "GET /graph/topology?types=hardware,network",
    await measure(20, () => hit(ctx, "GET", "/api/v1/graph/topology?types=hardware,network"), 2),
    {
      note: `${sizes.counts.nodes} nodes, ${sizes.counts.edges} edges`,
    },
  );
  const plain = await wire(ctx, "/api/v1/graph/topology", undefined);
  const zipped: number[] = [];
  let gzBytes = 0;
  for (let i = 0; i < 4; i++) {
    const w = await wire(ctx, "/api/v1/graph/topology", "gzip");
    if (i > 0) zipped.push(w.ms);
    gzBytes = w.bytes;
  }
  rows.push({
    name: "GET /graph/topology (everything), gzip as a browser asks",
    p50_ms: round(zipped.sort((a, b) => a - b)[1]!),
    note: `${(gzBytes / 1e6).toFixed(1)} MB on the wire (target < 15 MB; without gzip ${(plain.bytes / 1e6).toFixed(1)} MB in ${round(plain.ms)} ms); 3 loads after a warm-up`,
  });
  return rows;
}

/** Bytes on the wire and the time to the last of them, asking for `encoding` (or none). */
function wire(ctx: BenchContext, path: string, encoding: string | undefined): Promise<{ bytes: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${ctx.baseUrl}${path}`, {
      headers: {
        authorization: `Bearer ${ctx.token}`,
        "x-forwarded-for": nextClient(),
        ...(encoding ? { "accept-encoding": encoding } : {}),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () => resolve({ bytes, ms: performance.now() - t0 }));
      res.on("error", reject);
    });
    req.end();
  });
}
