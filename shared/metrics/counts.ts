// The inventory counts of spec 4.3 (all gauges), read in ONE query: each family contributes a select of
// (a, b, v) — up to two label values and the value — and the selects are joined with UNION ALL.
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { queryRows, type Db } from "../db/database.ts";
import {
  auditLog,
  computeUnits,
  docs,
  externalNodes,
  hardware,
  hardwareClusters,
  miscItems,
  networks,
  serviceDependencies,
  services,
  storage,
  tags,
  users,
} from "../db/schema/index.ts";
import { COMPUTE_KINDS } from "../schemas/compute-units.ts";
import { SERVICE_STATUSES } from "../schemas/services.ts";
import { STORAGE_KINDS } from "../schemas/storage.ts";
import { type Family, familyHeader, sampleLine } from "./exposition.ts";

interface CountFamily extends Family {
  /** Selects columns a, b (label values, text) and v (float8). */
  query: SQL;
  /** Label values always written, 0 when nothing matches (spec: every kind of the table). */
  always?: readonly string[];
}

const count = (table: PgTable): SQL => sql`select null::text as a, null::text as b, count(*)::float8 as v from ${table}`;
const sum = (table: PgTable, column: AnyPgColumn): SQL =>
  sql`select null::text as a, null::text as b, coalesce(sum(${column}), 0)::float8 as v from ${table}`;
const countBy = (table: PgTable, a: AnyPgColumn, b?: AnyPgColumn): SQL =>
  b
    ? sql`select coalesce(${a}, '') as a, coalesce(${b}, '') as b, count(*)::float8 as v from ${table} group by 1, 2`
    : sql`select coalesce(${a}, '') as a, null::text as b, count(*)::float8 as v from ${table} group by 1`;

const gauge = (name: string, help: string, labels: readonly string[], query: SQL, always?: readonly string[]): CountFamily => ({
  name,
  help,
  type: "gauge",
  labels,
  query,
  ...(always ? { always } : {}),
});

export const INFO: Family = {
  name: "svc_info",
  help: "Application version (an info metric, written as a gauge of value 1).",
  type: "gauge",
  labels: ["version"],
};

/** Spec 4.3, "Inventory counts", in the table's order. */
export const COUNT_FAMILIES: readonly CountFamily[] = [
  gauge("svc_hardware_total", "Hardware nodes.", [], count(hardware)),
  gauge("svc_compute_units_total", "Compute units by kind.", ["kind"], countBy(computeUnits, computeUnits.kind), COMPUTE_KINDS),
  gauge("svc_services_total", "Services.", [], count(services)),
  gauge(
    "svc_services_by_status_total",
    "Services by operational status.",
    ["status"],
    countBy(services, services.status),
    SERVICE_STATUSES,
  ),
  gauge("svc_storage_items_total", "Storage items by kind.", ["kind"], countBy(storage, storage.kind), STORAGE_KINDS),
  gauge("svc_storage_capacity_gb_total", "Sum of configured storage capacity, GB.", [], sum(storage, storage.capacity_gb)),
  gauge("svc_storage_used_gb_total", "Sum of reported storage usage, GB.", [], sum(storage, storage.used_gb)),
  gauge("svc_networks_total", "Network segments.", [], count(networks)),
  gauge("svc_hardware_clusters_total", "Hardware clusters.", [], count(hardwareClusters)),
  gauge(
    "svc_external_nodes_total",
    "External nodes by provider and kind.",
    ["provider", "kind"],
    countBy(externalNodes, externalNodes.provider, externalNodes.kind),
  ),
  gauge("svc_misc_items_total", "Miscellaneous items.", [], count(miscItems)),
  gauge("svc_docs_total", "Documentation entries.", [], count(docs)),
  gauge("svc_users_total", "Registered users (service accounts included).", [], count(users)),
  gauge("svc_tags_total", "Unique tags.", [], count(tags)),
  gauge("svc_service_dependencies_total", "Service dependency edges.", [], count(serviceDependencies)),
  gauge(
    "svc_audit_log_entries_total",
    "Audit log entries by level and category.",
    ["level", "category"],
    countBy(auditLog, auditLog.level, auditLog.category),
  ),
];

interface CountRow {
  metric: string;
  a: string | null;
  b: string | null;
  v: number | string;
}

const byLabels = (x: CountRow, y: CountRow): number => {
  const p = `${x.a ?? ""}\u0000${x.b ?? ""}`;
  const q = `${y.a ?? ""}\u0000${y.b ?? ""}`;
  return p < q ? -1 : p > q ? 1 : 0;
};

/** One family's lines: the `always` label values first (in their declared order), then the others sorted. */
function familyLines(f: CountFamily, rows: CountRow[]): string {
  let out = familyHeader(f);
  const seen = new Set<string>();
  for (const value of f.always ?? []) {
    const row = rows.find((r) => r.a === value);
    out += sampleLine(f, [value], row ? Number(row.v) : 0);
    seen.add(value);
  }
  for (const row of rows.filter((r) => !seen.has(r.a ?? "")).sort(byLabels)) {
    out += sampleLine(f, [row.a, row.b].slice(0, f.labels.length), Number(row.v));
  }
  return out;
}

/** Every count family's rows (metric, a, b, v) in one query. */
export function countsQuery(): SQL {
  const parts = COUNT_FAMILIES.map((f) => sql`select ${f.name}::text as metric, q.a, q.b, q.v from (${f.query}) q`);
  return sql.join(parts, sql` union all `);
}

/** svc_info and every count family, from one round trip. */
export async function countsText(db: Db, version: string): Promise<string> {
  const rows = await queryRows<CountRow>(db, countsQuery());
  const byFamily = new Map<string, CountRow[]>();
  for (const r of rows) {
    const list = byFamily.get(r.metric);
    if (list) list.push(r);
    else byFamily.set(r.metric, [r]);
  }
  let out = familyHeader(INFO) + sampleLine(INFO, [version], 1);
  for (const f of COUNT_FAMILIES) out += familyLines(f, byFamily.get(f.name) ?? []);
  return out;
}
