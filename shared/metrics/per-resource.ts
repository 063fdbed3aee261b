// The per-resource series of spec 4.3, read page by page (keyset on the integer id), so a scrape of a
// large inventory holds one page at a time. The five value series skip resources whose value is null.
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { queryRows, type Db } from "../db/database.ts";
import { computeUnits, environments, hardware, services, storage } from "../db/schema/index.ts";
import { SERVICE_STATUSES } from "../schemas/services.ts";
import { type Family, pageText, sampleLine, sampleLinesOverLast } from "./exposition.ts";

export interface PagedFamily extends Family {
  /** Up to `limit` rows with id > `after`, ordered by id (the bare SQL of one page). */
  query(after: number, limit: number): SQL;
  /** The family's sample lines, one chunk per page of `pageSize` resources. */
  chunks(db: Db, pageSize: number): AsyncGenerator<string>;
}

/** Pages through `query(after, limit)` (rows ordered by id) and yields each page's lines. */
async function* keyset<R extends { id: number | string }>(
  db: Db,
  pageSize: number,
  query: (after: number, limit: number) => SQL,
  lines: (row: R) => string,
): AsyncGenerator<string> {
  for (let after = 0; ; ) {
    const rows = await queryRows<R>(db, query(after, pageSize));
    if (rows.length) yield pageText(rows, lines);
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return;
    after = Number(last.id);
  }
}

interface ValueRow {
  id: number;
  name: string;
  second: string | null;
  value: number | string;
}

/** A gauge per resource labelled `name` and one more label, emitted only where `value` is set (never 0 for null). */
function valueFamily(
  name: string,
  help: string,
  second: "role" | "kind",
  table: PgTable,
  cols: { id: AnyPgColumn; name: AnyPgColumn; second: AnyPgColumn; value: AnyPgColumn },
): PagedFamily {
  const family: Family = { name, help, type: "gauge", labels: ["name", second] };
  const query = (after: number, limit: number) =>
    sql`select ${cols.id} as id, ${cols.name} as name, ${cols.second} as second, ${cols.value}::float8 as value
      from ${table} where ${cols.value} is not null and ${cols.id} > ${after} order by ${cols.id} limit ${limit}`;
  return {
    ...family,
    query,
    chunks: (db, pageSize) => keyset<ValueRow>(db, pageSize, query, (r) => sampleLine(family, [r.name, r.second], Number(r.value))),
  };
}

interface ServiceRow {
  id: number;
  name: string;
  slug: string;
  environment: string | null;
  status: string;
}

const serviceStatusFamily: Family = {
  name: "svc_service_status",
  help: "Operational status per service: one series per possible status, 1 for the active one and 0 for the others.",
  type: "gauge",
  labels: ["name", "slug", "environment", "status"],
};

// The environment label is the service's own text, else the name of its linked environment.
const serviceQuery = (after: number, limit: number) =>
  sql`select s.id, s.name, s.slug, coalesce(s.environment, e.name) as environment, s.status
    from ${services} s left join ${environments} e on e.id = s.environment_id
    where s.id > ${after} order by s.id limit ${limit}`;

// The [status, value] pairs of each stored status, built once rather than per service.
const statusPairs = (active: string) => SERVICE_STATUSES.map((status) => [status, active === status ? 1 : 0] as const);
const STATUS_PAIRS = new Map(SERVICE_STATUSES.map((status) => [status as string, statusPairs(status)]));

const serviceLines = (r: ServiceRow) =>
  sampleLinesOverLast(serviceStatusFamily, [r.name, r.slug, r.environment], STATUS_PAIRS.get(r.status) ?? statusPairs(r.status));

const serviceStatus: PagedFamily = {
  ...serviceStatusFamily,
  query: serviceQuery,
  chunks: (db, pageSize) => keyset<ServiceRow>(db, pageSize, serviceQuery, serviceLines),
};

/** Spec 4.3, "Per-resource series", in the table's order. */
export const PER_RESOURCE_FAMILIES: readonly PagedFamily[] = [
  serviceStatus,
  valueFamily("svc_hardware_memory_configured_gb", "Configured memory per hardware node, GB.", "role", hardware, {
    id: hardware.id,
    name: hardware.name,
    second: hardware.role,
    value: hardware.memory_gb,
  }),
  valueFamily("svc_compute_unit_memory_configured_mb", "Configured memory per compute unit, MB.", "kind", computeUnits, {
    id: computeUnits.id,
    name: computeUnits.name,
    second: computeUnits.kind,
    value: computeUnits.memory_mb,
  }),
  valueFamily("svc_compute_unit_cpu_cores_configured", "Configured CPU cores per compute unit.", "kind", computeUnits, {
    id: computeUnits.id,
    name: computeUnits.name,
    second: computeUnits.kind,
    value: computeUnits.cpu_cores,
  }),
  valueFamily("svc_storage_capacity_gb", "Configured capacity per storage item, GB.", "kind", storage, {
    id: storage.id,
    name: storage.name,
    second: storage.kind,
    value: storage.capacity_gb,
  }),
  valueFamily("svc_storage_used_gb", "Reported used space per storage item, GB.", "kind", storage, {
    id: storage.id,
    name: storage.name,
    second: storage.kind,
    value: storage.used_gb,
  }),
];
