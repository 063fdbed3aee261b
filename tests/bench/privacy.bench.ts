// The privacy analysis over a large network: 10,000 hardware nodes (BENCH_SCALE=1) added beside the seed,
// each with a completed port scan's result matched to it (a tenth of them gateways; every fifth node with
// a risky port: telnet, FTP, SMB, UPnP, Redis or a DVR page). Timed: a snapshot (facts read, rules, insert,
// the alerts of its new findings), a second snapshot with nothing new, and the reads over HTTP (score,
// threat alerts, attack surface, one threat profile). Everything the bench added is removed afterwards.
import { cryptoRandom } from "../../shared/clock.ts";
import { takePrivacySnapshot } from "../../shared/verbs/privacy/take-snapshot.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { api, type BenchContext, type BenchRow, round } from "./harness.ts";

const NODES = 10_000;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await fn();
  return [out, round(performance.now() - t)];
}

/** p50 and p99 of `n` sequential runs of `fn`, in ms. */
async function percentiles(n: number, fn: () => Promise<unknown>): Promise<{ p50_ms: number; p99_ms: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push((await timed(fn))[1]);
  times.sort((x, y) => x - y);
  return { p50_ms: times[Math.floor(n * 0.5)]!, p99_ms: times[Math.min(n - 1, Math.floor(n * 0.99))]! };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const { sql } = ctx;
  const nodes = Math.max(500, Math.round(NODES * ctx.scale));
  const [job] = await sql<
    { id: number }[]
  >`insert into scan_jobs (status, target_cidr, scan_types, started_at, completed_at) values ('completed', '127.70.0.0/16', '["tcp","banner","http"]', now(), now()) returning id`;
  const [, seedMs] = await timed(async () => {
    await sql`
      insert into hardware (name, role, ip_address, status)
      select 'pv-' || i, case when i % 10 = 0 then 'router' else 'server' end, '127.70.' || (i >> 8) % 256 || '.' || i % 256, 'up'
      from generate_series(1, ${nodes}) i`;
    await sql`
      insert into scan_results (scan_job_id, ip_address, open_ports, state, merge_status, matched_entity_type, matched_entity_id, sources)
      select ${job!.id}, h.ip_address,
        jsonb_build_array(jsonb_build_object('port', 22, 'protocol', 'tcp', 'service', 'ssh', 'banner', 'SSH-2.0-OpenSSH_9.6'),
                          jsonb_build_object('port', 443, 'protocol', 'tcp', 'service', 'https'))
        || case (h.id % 30)
             when 0 then jsonb_build_array(jsonb_build_object('port', 23, 'protocol', 'tcp'))
             when 5 then jsonb_build_array(jsonb_build_object('port', 21, 'protocol', 'tcp', 'banner', '220 (vsFTPd 3.0.5)'))
             when 10 then jsonb_build_array(jsonb_build_object('port', 445, 'protocol', 'tcp'))
             when 15 then jsonb_build_array(jsonb_build_object('port', 5000, 'protocol', 'tcp', 'service', 'http', 'server', 'Linux UPnP/1.0 miniupnpd/2.3'))
             when 20 then jsonb_build_array(jsonb_build_object('port', 6379, 'protocol', 'tcp'))
             when 25 then jsonb_build_array(jsonb_build_object('port', 80, 'protocol', 'tcp', 'service', 'http', 'http_title', 'NETSurveillance WEB'))
             else '[]'::jsonb end,
        'matched', 'accepted', 'hardware', h.id, '["tcp","banner"]'
      from hardware h where h.name like 'pv-%'`;
  });
  const [before] = await sql<{ id: number }[]>`select coalesce(max(id), 0)::int as id from privacy_snapshots`;
  const [alertsBefore] = await sql<{ id: number }[]>`select coalesce(max(id), 0)::int as id from notification_alerts`;
  const db = ctx.runtime.deps.database.lease().db;
  const vctx = systemContext({ db, clock: { now: () => new Date() }, random: cryptoRandom });
  const rows: BenchRow[] = [];
  try {
    const [first, firstMs] = await timed(() => takePrivacySnapshot({ ctx: vctx, input: { trigger: "manual" } }));
    rows.push({
      name: `snapshot of ${nodes} scanned nodes (first: every finding new)`,
      total_ms: firstMs,
      note: `score ${first.score}, ${first.findings} findings, ${first.new_findings} new (alerts capped at 20 + summary); seeded in ${seedMs} ms`,
    });
    const [second, secondMs] = await timed(() => takePrivacySnapshot({ ctx: vctx, input: { trigger: "manual" } }));
    rows.push({
      name: "snapshot again (nothing new)",
      total_ms: secondMs,
      note: `${second.findings} findings, ${second.new_findings} new`,
    });
    const [bare, bareMs] = await timed(
      () =>
        sql`select count(*)::int as n from scan_results r join hardware h on h.id = r.matched_entity_id where r.matched_entity_type = 'hardware'`,
    );
    rows.push({
      name: "GET /network/privacy-score, HTTP",
      ...(await percentiles(10, () => api(ctx, "GET", "/api/v1/network/privacy-score"))),
      baseline_sql_ms: bareMs,
      note: `bare SQL: join of ${bare[0]!.n} results to their nodes`,
    });
    rows.push({
      name: "GET /network/threat-alerts, HTTP",
      ...(await percentiles(10, () => api(ctx, "GET", "/api/v1/network/threat-alerts"))),
    });
    const surface = (await api(ctx, "GET", "/api/v1/network/attack-surface")) as { attack_surface: unknown[] };
    rows.push({
      name: "GET /network/attack-surface, HTTP",
      ...(await percentiles(10, () => api(ctx, "GET", "/api/v1/network/attack-surface"))),
      note: `${surface.attack_surface.length} nodes with open ports`,
    });
    const [one] = await sql<{ id: number }[]>`select id from hardware where name = 'pv-30'`;
    rows.push({
      name: "GET /devices/{id}/threat-profile, HTTP",
      ...(await percentiles(20, () => api(ctx, "GET", `/api/v1/devices/${one!.id}/threat-profile`))),
    });
  } finally {
    await sql`delete from privacy_snapshots where id > ${before!.id}`;
    await sql`delete from notification_alerts where id > ${alertsBefore!.id} and kind like 'privacy.%'`;
    await sql`delete from scan_jobs where id = ${job!.id}`;
    await sql`delete from hardware where name like 'pv-%'`;
  }
  return rows;
}
