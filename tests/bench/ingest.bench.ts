// Telemetry ingestion: POST /hardware/{id}/telemetry/samples with 1000-sample batches through the real
// HTTP server and a write:telemetry token (validation, one multi-row insert, status transitions, audit
// entry, NOTIFY), in rows per second, beside the bare multi-row INSERT of the same 1000 rows. Batches
// are the way in: the telemetry rate limit (15 requests a minute, normal profile) applies per client.
import { api, type BenchContext, type BenchRow, measure, nextClient, round } from "./harness.ts";

const BATCH = 1000;
const BATCHES = 30;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const token = (
    (await api(ctx, "POST", "/api/v1/auth/api-token", { label: "bench pusher", scopes: ["write:telemetry"] })) as { token: string }
  ).token;
  const [node] = await ctx.sql<{ id: number }[]>`insert into hardware (name) values (${`bench-ingest-${process.pid}`}) returning id`;
  const id = node!.id;
  // Timestamps march forward one second a sample from 20 days ago: inside telemetry_warm_days, never ahead.
  const origin = Date.now() - 20 * 86_400_000;
  let next = 0;
  const batch = (flapEvery = 0) =>
    Array.from({ length: BATCH }, (_, i) => {
      const n = next++;
      return {
        ts: new Date(origin + n * 1000).toISOString(),
        cpu_pct: n % 100,
        mem_pct: (n * 7) % 100,
        disk_pct: 40 + (n % 50) / 10,
        temp_c: 45,
        net_rx_bps: n * 10,
        net_tx_bps: n * 5,
        uptime_s: n,
        ...(flapEvery > 0 && i % flapEvery === 0 ? { status: (n / flapEvery) % 2 === 0 ? "up" : "down" } : {}),
      };
    });
  const push = async (samples: unknown[]) => {
    const res = await fetch(`${ctx.baseUrl}/api/v1/hardware/${id}/telemetry/samples`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-forwarded-for": nextClient() },
      body: JSON.stringify({ samples }),
    });
    if (res.status !== 201) throw new Error(`push -> ${res.status}: ${await res.text()}`);
  };
  // Rows per second at the median batch (req/s rounds to whole requests, too coarse here).
  const perRow = (m: { p50: number }) => `${Math.round((BATCH / m.p50) * 1000)} rows/s`;

  const plain = await measure(BATCHES, () => push(batch()), 3);
  const flapping = await measure(BATCHES, () => push(batch(10)), 3);
  // The same 1000-row INSERT, straight through postgres.js.
  const bare = await measure(
    BATCHES,
    async () => {
      const rows = batch().map((s) => ({
        hardware_id: id,
        ts: s.ts,
        cpu_pct: s.cpu_pct,
        mem_pct: s.mem_pct,
        disk_pct: s.disk_pct,
        temp_c: s.temp_c,
        net_rx_bps: s.net_rx_bps,
        net_tx_bps: s.net_tx_bps,
        uptime_s: s.uptime_s,
        source: "push",
      }));
      await ctx.sql`insert into hardware_live_metrics ${ctx.sql(rows)}`;
    },
    3,
  );
  const [stored] = await ctx.sql<{ n: number; changes: number }[]>`
    select (select count(*)::int from hardware_live_metrics where hardware_id = ${id}) as n,
           (select count(*)::int from status_history where entity_type = 'hardware' and entity_id = ${id}) as changes`;
  await ctx.sql`delete from hardware where id = ${id}`; // its rows go with it (cascade)
  await ctx.sql`delete from status_history where entity_type = 'hardware' and entity_id = ${id}`;

  return [
    {
      name: `POST telemetry/samples, ${BATCH}-sample batch`,
      p50_ms: plain.p50,
      p99_ms: plain.p99,
      rps: plain.rps,
      baseline_sql_ms: bare.p50,
      note: `${perRow(plain)}; ${round(plain.p50 / bare.p50)}x the bare INSERT (${perRow(bare)})`,
    },
    {
      name: `... with a status every 10th sample (flapping)`,
      p50_ms: flapping.p50,
      p99_ms: flapping.p99,
      rps: flapping.rps,
      baseline_sql_ms: bare.p50,
      note: `${perRow(flapping)}; ${stored!.changes} transitions, ${stored!.n} rows stored in all`,
    },
  ];
}
