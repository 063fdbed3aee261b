// Issue 33 item 7: a CSV import of 10,000 hardware rows (target < 10 s on 2 cores), through the real
// server: POST /api/v1/hardware/import.csv with ?dry_run=true, then the apply (one transaction, an audit
// entry and an event per row), then the same file with the new ids and a changed column (10,000 updates,
// dry run and apply). References by name (site, environment), tags, numbers. `npm run bench -- csv-import`;
// figures in docs/csv-import.md.
import { api, type BenchContext, type BenchRow, round } from "./harness.ts";

/** The file's rows: the target's 10,000 whatever BENCH_SCALE (which sizes the seeded inventory); CSV_BENCH_ROWS to change. */
const ROWS = Number(process.env.CSV_BENCH_ROWS ?? "10000");

async function post(ctx: BenchContext, csv: string, dryRun: boolean): Promise<{ ms: number; status: number; report: Report }> {
  const t = performance.now();
  const res = await fetch(`${ctx.baseUrl}/api/v1/hardware/import.csv${dryRun ? "?dry_run=true" : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ctx.token}`, "content-type": "text/csv" },
    body: csv,
  });
  const report = (await res.json()) as Report;
  return { ms: performance.now() - t, status: res.status, report };
}

interface Report {
  totals: Record<string, number>;
  rows: { id: number | null }[];
}

const totals = (r: Report) =>
  Object.entries(r.totals ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const tag = Date.now();
  await api(ctx, "POST", "/api/v1/sites", { name: `csv-bench-site-${tag}` });
  await api(ctx, "POST", "/api/v1/environments", { name: `csv-bench-env-${tag}` });
  const line = (i: number, id = "", role = "server") =>
    `${id},csv-bench-${tag}-${i},${role},Dell,R740,${64 + (i % 4)},10.${200 + (i >> 16)}.${(i >> 8) & 255}.${i & 255},csv-bench-site-${tag},csv-bench-env-${tag},"rack-a, bench"`;
  const header = "id,name,role,vendor,model,memory_gb,ip_address,site,environment,tags";
  const creates = [header, ...Array.from({ length: ROWS }, (_, i) => line(i))].join("\n");
  const rows: BenchRow[] = [];
  const add = (name: string, r: { ms: number; status: number; report: Report }) =>
    rows.push({
      name,
      total_ms: round(r.ms),
      note: `HTTP ${r.status}; ${totals(r.report)}; ${round((ROWS / r.ms) * 1000)} rows/s; ${(creates.length / 1024 / 1024).toFixed(1)} MB file`,
    });
  add(`CSV import, ${ROWS.toLocaleString("en")} hardware rows, dry run (creates)`, await post(ctx, creates, true));
  const applied = await post(ctx, creates, false);
  add(`CSV import, ${ROWS.toLocaleString("en")} hardware rows, apply (creates)`, applied);
  const ids = applied.report.rows.map((r) => r.id ?? "");
  const updates = [header, ...Array.from({ length: ROWS }, (_, i) => line(i, String(ids[i]), "storage"))].join("\n");
  add(`CSV import, ${ROWS.toLocaleString("en")} hardware rows by id, dry run (updates)`, await post(ctx, updates, true));
  add(`CSV import, ${ROWS.toLocaleString("en")} hardware rows by id, apply (updates)`, await post(ctx, updates, false));
  add(`CSV import, ${ROWS.toLocaleString("en")} hardware rows by id, nothing changed`, await post(ctx, updates, true));
  return rows;
}
