// Discovery results against a large inventory (issue 13: merging 1,000 findings into 100,000 objects in
// under 5 s). The seed's nodes and compute units are topped up with set-based SQL to 100,000 hardware +
// compute units (BENCH_SCALE=1), a quarter of the new ones with MACs. Then one job records 1,000 findings
// through the recordFindings verb (250 matched by MAC, 250 by address on hardware, 100 by address on
// compute units, 150 by hostname, 250 new), and POST /discovery/results/bulk-merge accepts them all over
// HTTP; the merge's undo is timed too. Everything the bench added is removed afterwards.
import { cryptoRandom } from "../../shared/clock.ts";
import { emptyFinding, type HostFinding } from "../../shared/domain/discovery/finding.ts";
import { recordFindings } from "../../shared/verbs/discovery/results/record-findings.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { api, type BenchContext, type BenchRow, round } from "./harness.ts";

const TARGET = 100_000;
const mac = (i: number) =>
  `02:be:${((i >> 16) & 255).toString(16).padStart(2, "0")}:${((i >> 8) & 255).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}:01`;
const ip = (i: number) => `127.64.${(i >> 8) & 255}.${i & 255}`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await fn();
  return [out, round(performance.now() - t)];
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const { sql } = ctx;
  const [have] = await sql<{ n: number }[]>`select ((select count(*) from hardware) + (select count(*) from compute_units))::int as n`;
  const extra = Math.max(5_000, Math.round((TARGET * ctx.scale - have!.n) / 2));
  const [, seedMs] = await timed(async () => {
    // Bench nodes: ids 1..extra; odd ones have no address (the hostname matches), a quarter have MACs.
    await sql`
      insert into hardware (name, role, ip_address, mac_address, status)
      select 'dm-' || i, 'server', case when i % 2 = 0 then '127.64.' || (i >> 8) % 256 || '.' || i % 256 end,
             case when i % 4 = 0 then '02:be:' || lpad(to_hex((i >> 16) & 255), 2, '0') || ':' || lpad(to_hex((i >> 8) & 255), 2, '0') || ':' || lpad(to_hex(i & 255), 2, '0') || ':01' end,
             'up'
      from generate_series(1, ${extra}) i`;
    await sql`
      insert into compute_units (name, kind, ip_address, status)
      select 'dm-vm-' || i, 'vm', '127.65.' || (i >> 8) % 256 || '.' || i % 256, 'running'
      from generate_series(1, ${extra}) i`;
  });
  const [total] = await sql<{ n: number }[]>`select ((select count(*) from hardware) + (select count(*) from compute_units))::int as n`;

  const findings: HostFinding[] = [];
  const f = (addr: string, fields: Partial<HostFinding>) =>
    findings.push({ ...emptyFinding(addr), sources: ["icmp", "tcp"], open_ports: [{ port: 22, protocol: "tcp" }], ...fields });
  for (let k = 0; k < 250; k++) f(ip(4 * (k + 1)), { mac_address: mac(4 * (k + 1)) }); // by MAC (same address: matched)
  for (let k = 0; k < 250; k++) f(ip(4 * (k + 300) + 2), {}); // by address, hardware without MAC
  for (let k = 0; k < 100; k++) f(`127.65.${((k + 1) >> 8) & 255}.${(k + 1) & 255}`, {}); // by address, compute unit
  for (let k = 0; k < 150; k++) f(`127.66.0.${k + 1}`, { hostname: `dm-${2 * k + 1}.lab` }); // by hostname
  for (let k = 0; k < 250; k++)
    f(`127.67.${k >> 8}.${(k & 255) + 1}`, {
      mac_address: `02:ca:fe:00:${(k >> 8).toString(16).padStart(2, "0")}:${(k & 255).toString(16).padStart(2, "0")}`,
    }); // new

  const [job] = await sql<
    { id: number }[]
  >`insert into scan_jobs (status, target_cidr, scan_types, started_at) values ('running', '127.64.0.0/16', '["icmp","tcp"]', now()) returning id`;
  const db = ctx.runtime.deps.database.lease().db;
  const vctx = systemContext({ db, clock: { now: () => new Date() }, random: cryptoRandom });
  const rows: BenchRow[] = [];
  try {
    const [counts, recordMs] = await timed(() => recordFindings({ ctx: vctx, input: { job_id: job!.id, findings } }));
    rows.push({
      name: `recordFindings 1,000 findings vs ${total!.n} objects`,
      total_ms: recordMs,
      note: `${counts.new} new, ${counts.matched} matched, ${counts.conflict} conflict; seeded ${2 * extra} more in ${seedMs} ms`,
    });

    const ids = (await sql<{ id: number }[]>`select id from scan_results where scan_job_id = ${job!.id} order by id`).map((r) => r.id);
    const [merged, mergeMs] = await timed(
      () =>
        api(ctx, "POST", "/api/v1/discovery/results/bulk-merge", { result_ids: ids, action: "accept" }) as Promise<{
          accepted: number;
          skipped: number;
          audit_id: number;
        }>,
    );
    rows.push({
      name: "bulk-merge (accept) 1,000 results, HTTP",
      total_ms: mergeMs,
      note: `${merged.accepted} accepted, ${merged.skipped} skipped, one transaction + one audit entry`,
    });
    const sum = round(recordMs + mergeMs);
    rows.push({ name: "record + merge", total_ms: sum, note: sum < 5000 ? "within the 5 s target" : "OVER the 5 s target" });

    const [, undoMs] = await timed(() => api(ctx, "POST", `/api/v1/discovery/merges/${merged.audit_id}/undo`));
    rows.push({ name: "undo of that bulk-merge, HTTP", total_ms: undoMs });
  } finally {
    await sql`delete from hardware where id in (select matched_entity_id from scan_results where scan_job_id = ${job!.id} and merge_status = 'merged')`;
    await sql`delete from scan_jobs where id = ${job!.id}`;
    await sql`delete from compute_units where name like 'dm-vm-%'`;
    await sql`delete from hardware where name like 'dm-%'`;
  }
  return rows;
}
