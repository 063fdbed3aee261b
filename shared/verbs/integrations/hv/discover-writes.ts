// The discover's writes, set-based so a 2,000-guest cluster is a handful of statements: per inventory
// table one SELECT of the rows our external_refs name, a compare in memory, one multi-row INSERT of the
// new rows, one UPDATE ... FROM jsonb_to_recordset of the changed ones, one upsert of the refs that
// changed. Rows equal to what the cluster says are not written at all (a re-run with nothing changed
// writes 0 rows). Memberships (bridge ↔ node, bridge ↔ guest) are diffed the same way.
import { inArray, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { canonicalJson } from "../../../audit/canonical.ts";
import { queryRows } from "../../../db/database.ts";
import { computeUnits, externalRefs, hardware, networks, storage } from "../../../db/schema/index.ts";
import type { VerbScope } from "../../verb.ts";
import type { HvEntityType, HvRow } from "./hv-inventory.ts";

export type RefRow = typeof externalRefs.$inferSelect;

export interface HvChange {
  entity_type: HvEntityType;
  id: number;
  name: string;
  fields?: string[];
}

export interface WriteTally {
  created: HvChange[];
  updated: HvChange[];
  /** Inventory rows (and memberships) inserted, changed or deleted. */
  rows: number;
}

interface TableSpec {
  table: PgTable;
  id: PgColumn;
  name: string;
  /** Column → its PostgreSQL type, for jsonb_to_recordset. */
  columns: Record<string, string>;
  /** hardware.status_changed_at follows status. */
  statusClock?: boolean;
}

export const HV_TABLES: Record<HvEntityType, TableSpec> = {
  hardware: {
    table: hardware,
    id: hardware.id,
    name: "hardware",
    columns: { name: "text", role: "text", ip_address: "text", memory_gb: "float8", status: "text", status_changed_at: "timestamptz" },
    statusClock: true,
  },
  compute_unit: {
    table: computeUnits,
    id: computeUnits.id,
    name: "compute_units",
    columns: {
      name: "text",
      kind: "text",
      hardware_id: "int",
      cpu_cores: "float8",
      memory_mb: "int",
      disk_gb: "float8",
      status: "text",
      ip_address: "text",
      os: "text",
    },
  },
  network: { table: networks, id: networks.id, name: "networks", columns: { name: "text", cidr: "text", gateway: "text" } },
  storage: {
    table: storage,
    id: storage.id,
    name: "storage",
    columns: { name: "text", kind: "text", capacity_gb: "float8", used_gb: "float8", hardware_id: "int" },
  },
};

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
const CHUNK = 1000;
function* chunks<T>(list: T[]): Generator<T[]> {
  for (let i = 0; i < list.length; i += CHUNK) yield list.slice(i, i + CHUNK);
}
const withoutRemoved = ({ removed_at: _r, ...rest }: Record<string, unknown>) => rest;

/** Writes `rows` of one entity type; answers external id → inventory id for every row. */
export async function syncHvRows(
  s: VerbScope,
  source: string,
  refs: Map<string, RefRow>,
  type: HvEntityType,
  rows: HvRow[],
  tally: WriteTally,
): Promise<Map<string, number>> {
  const spec = HV_TABLES[type];
  const cols = Object.keys(spec.columns);
  const ids = new Map<string, number>();
  const refIds = rows.flatMap((r) => {
    const ref = refs.get(r.external_id);
    return ref && ref.entity_type === type ? [ref.entity_id] : [];
  });
  const before = new Map<number, Record<string, unknown>>();
  for (const part of chunks(refIds))
    for (const b of (await s.tx.select().from(spec.table).where(inArray(spec.id, part))) as Record<string, unknown>[])
      before.set(b.id as number, b);

  const inserts: HvRow[] = [];
  const updates: Record<string, unknown>[] = [];
  const refWrites: { external_id: string; entity_id: number; attributes: Record<string, unknown> }[] = [];
  for (const r of rows) {
    const ref = refs.get(r.external_id);
    const b = ref && ref.entity_type === type ? before.get(ref.entity_id) : undefined;
    // No ref, or the operator deleted the row it named: a new row (and the ref repointed to it).
    if (!ref || !b) {
      inserts.push(r);
      continue;
    }
    const id = b.id as number;
    ids.set(r.external_id, id);
    const fields = Object.keys(r.values).filter((k) => !same(b[k], r.values[k]));
    if (fields.length > 0) {
      const row: Record<string, unknown> = { id };
      for (const c of cols) row[c] = c in r.values ? r.values[c] : b[c];
      if (spec.statusClock && fields.includes("status")) row.status_changed_at = s.now.toISOString();
      updates.push(row);
      tally.updated.push({ entity_type: type, id, name: String(r.values.name ?? b.name), fields });
    }
    if (ref.attributes.removed_at !== undefined || !same(withoutRemoved(ref.attributes), r.attributes))
      refWrites.push({ external_id: r.external_id, entity_id: id, attributes: r.attributes });
  }

  for (const part of chunks(inserts)) {
    const values = part.map((r) => ({ ...r.values, ...(spec.statusClock ? { status_changed_at: s.now } : {}) }));
    const out = (await s.tx
      .insert(spec.table)
      .values(values as never)
      .returning({ id: spec.id })) as { id: number }[];
    // A multi-row INSERT ... RETURNING answers in the order of its VALUES.
    out.forEach((o, i) => {
      const r = part[i]!;
      ids.set(r.external_id, o.id);
      refWrites.push({ external_id: r.external_id, entity_id: o.id, attributes: r.attributes });
      tally.created.push({ entity_type: type, id: o.id, name: String(r.values.name) });
    });
  }
  tally.rows += inserts.length;

  for (const part of chunks(updates)) {
    const set = sql.raw(cols.map((c) => `${c} = x.${c}`).join(", "));
    const shape = sql.raw(["id int", ...cols.map((c) => `${c} ${spec.columns[c]}`)].join(", "));
    await s.tx.execute(sql`update ${sql.raw(spec.name)} t set ${set}, version = t.version + 1, updated_at = ${s.now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as x(${shape}) where t.id = x.id`);
  }
  tally.rows += updates.length;

  for (const part of chunks(refWrites)) {
    await s.tx
      .insert(externalRefs)
      .values(
        part.map((w) => ({
          source,
          external_id: w.external_id,
          entity_type: type,
          entity_id: w.entity_id,
          attributes: w.attributes,
          last_seen_at: s.now,
          updated_at: s.now,
        })),
      )
      .onConflictDoUpdate({
        target: [externalRefs.source, externalRefs.external_id],
        set: {
          entity_type: sql`excluded.entity_type`,
          entity_id: sql`excluded.entity_id`,
          attributes: sql`excluded.attributes`,
          last_seen_at: sql`excluded.last_seen_at`,
          updated_at: sql`excluded.updated_at`,
        },
      });
  }
  return ids;
}

export interface Membership {
  network_id: number;
  member_id: number;
  ip_address: string | null;
}

/**
 * Makes the memberships between `networkIds` and `memberIds` (both ours) exactly `desired`; pairs with
 * anything an operator added (another network, another member) are left alone. Answers rows written.
 */
export async function syncHvMembers(
  s: VerbScope,
  kind: "compute" | "hardware",
  networkIds: number[],
  memberIds: number[],
  desired: Membership[],
): Promise<number> {
  if (networkIds.length === 0 || memberIds.length === 0) return 0;
  const table = sql.raw(kind === "compute" ? "network_members" : "network_hardware_members");
  const col = sql.raw(kind === "compute" ? "compute_id" : "hardware_id");
  const existing = await queryRows<Membership>(
    s.tx,
    sql`select network_id, ${col} as member_id, ip_address from ${table}
      where network_id = any(${`{${networkIds.join(",")}}`}::int[]) and ${col} = any(${`{${memberIds.join(",")}}`}::int[])`,
  );
  const key = (m: { network_id: number; member_id: number }) => `${m.network_id}:${m.member_id}`;
  const have = new Map(existing.map((m) => [key(m), m]));
  const want = new Map(desired.map((m) => [key(m), m]));
  const upserts = [...want.values()].filter((m) => !have.has(key(m)) || (have.get(key(m))!.ip_address ?? null) !== (m.ip_address ?? null));
  const deletes = [...have.values()].filter((m) => !want.has(key(m)));
  for (const part of chunks(upserts)) {
    await s.tx.execute(sql`insert into ${table} (network_id, ${col}, ip_address)
      select network_id, member_id, ip_address from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as x(network_id int, member_id int, ip_address text)
      on conflict (network_id, ${col}) do update set ip_address = excluded.ip_address`);
  }
  for (const part of chunks(deletes)) {
    await s.tx.execute(sql`delete from ${table} t using jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as x(network_id int, member_id int)
      where t.network_id = x.network_id and t.${col} = x.member_id`);
  }
  return upserts.length + deletes.length;
}

/** A type (not an interface) so it is assignable to Record<string, unknown> in the run's jsonb and the route's schema. */
export type Vanished = {
  entity_type: HvEntityType;
  entity_id: number;
  external_id: string;
  name: string | null;
};

/**
 * Marks what the previous runs saw and this one did not, once: guests "removed", nodes "unknown"
 * (networks and storage keep their row; the ref says removed_at). Nothing is deleted: an operator may
 * have edited or linked it. `keep` types (a partial read) are not marked.
 */
export async function markHvVanished(
  s: VerbScope,
  source: string,
  refs: Map<string, RefRow>,
  seen: Set<string>,
  keep: Set<HvEntityType>,
  tally: WriteTally,
): Promise<Vanished[]> {
  const gone = [...refs.values()].filter(
    (r) => !seen.has(r.external_id) && r.attributes.removed_at === undefined && !keep.has(r.entity_type as HvEntityType),
  );
  if (gone.length === 0) return [];
  const names = new Map<string, string>();
  for (const type of Object.keys(HV_TABLES) as HvEntityType[]) {
    const of = gone.filter((r) => r.entity_type === type);
    if (of.length === 0) continue;
    const spec = HV_TABLES[type];
    const list = `{${of.map((r) => r.entity_id).join(",")}}`;
    const ids = sql`id = any(${list}::int[])`;
    const mark = type === "compute_unit" || type === "hardware";
    const rows = await queryRows<{ id: number; name: string }>(
      s.tx,
      type === "compute_unit"
        ? sql`update compute_units set status = 'removed', version = version + 1, updated_at = ${s.now.toISOString()}::timestamptz where ${ids} returning id, name`
        : type === "hardware"
          ? sql`update hardware set status = 'unknown', status_changed_at = ${s.now.toISOString()}::timestamptz, version = version + 1, updated_at = ${s.now.toISOString()}::timestamptz where ${ids} returning id, name`
          : sql`select id, name from ${sql.raw(spec.name)} where ${ids}`,
    );
    if (mark) tally.rows += rows.length;
    for (const r of rows) names.set(`${type}:${r.id}`, r.name);
  }
  await s.tx.execute(sql`update external_refs set attributes = attributes || ${JSON.stringify({ removed_at: s.now.toISOString() })}::jsonb, updated_at = ${s.now.toISOString()}::timestamptz
    where source = ${source} and external_id = any(${`{${gone.map((r) => `"${r.external_id.replace(/["\\]/g, "\\$&")}"`).join(",")}}`}::text[])`);
  return gone.map((r) => ({
    entity_type: r.entity_type as HvEntityType,
    entity_id: r.entity_id,
    external_id: r.external_id,
    name: names.get(`${r.entity_type}:${r.entity_id}`) ?? null,
  }));
}

/**
 * A node seen for the first time may already be in the inventory, entered by hand or found by a scan:
 * the hardware row with its name (case-insensitive), else its address, that no hypervisor source keys
 * yet, is adopted (a ref to it is put in `refs`, so the row is updated, not duplicated).
 */
export async function adoptHvNodes(s: VerbScope, source: string, refs: Map<string, RefRow>, rows: HvRow[]): Promise<void> {
  const fresh = rows.filter((r) => !refs.has(r.external_id));
  if (fresh.length === 0) return;
  const names = fresh.map((r) => String(r.values.name).toLowerCase());
  const ips = fresh.map((r) => r.values.ip_address).filter((ip): ip is string => typeof ip === "string");
  const candidates = await queryRows<{ id: number; name: string; ip_address: string | null }>(
    s.tx,
    sql`select id, lower(name) as name, ip_address from hardware h
      where (lower(h.name) = any(${`{${names.map((n) => `"${n.replace(/["\\]/g, "\\$&")}"`).join(",")}}`}::text[]) or h.ip_address = any(${`{${ips.join(",")}}`}::text[]))
        and not exists (select 1 from external_refs r where r.entity_type = 'hardware' and r.entity_id = h.id and r.source like 'hv:%')
      order by h.id`,
  );
  const taken = new Set<number>();
  const pick = (match: (c: { name: string; ip_address: string | null }) => boolean) => candidates.find((c) => !taken.has(c.id) && match(c));
  for (const r of fresh) {
    const found =
      pick((c) => c.name === String(r.values.name).toLowerCase()) ??
      (r.values.ip_address ? pick((c) => c.ip_address === r.values.ip_address) : undefined);
    if (!found) continue;
    taken.add(found.id);
    refs.set(r.external_id, {
      id: 0,
      source,
      external_id: r.external_id,
      entity_type: "hardware",
      entity_id: found.id,
      attributes: { adopted: true },
      last_seen_at: s.now,
      created_at: s.now,
      updated_at: s.now,
    } as RefRow);
  }
}
