// IP prefixes. The prefix is stored as a PostgreSQL cidr (the body schema refuses host bits, naming
// the network); its VRF, site and VLAN must exist (422 naming the field). Within the global table and
// within a VRF that enforces uniqueness a prefix exists once (409 naming the holder); the check runs
// under a per-VRF advisory lock so two concurrent creates cannot both pass it. Parent, depth, children
// and utilisation are computed (tree.ts).
import { eq, type SQL, sql } from "drizzle-orm";
import type * as v from "valibot";
import { formatCidr } from "../../../domain/cidr-math.ts";
import { queryRows } from "../../../db/database.ts";
import { prefixes, sites, vlans, vrfs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { PrefixListQuery } from "../../../schemas/prefixes.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { requireOptionalRow } from "../../resources/row-checks.ts";
import type { VerbScope } from "../../verb.ts";
import { cidrOf, type PrefixFacts, prefixFacts } from "./tree.ts";

type Row = typeof prefixes.$inferSelect;

/** The advisory lock key's first half: "pref". The second is the VRF id, 0 for the global table. */
const LOCK_CLASS = 0x70726566;

/** Serialises prefix writes within one VRF (uniqueness checks, allocations) until the transaction ends. */
export async function lockVrf(s: VerbScope, vrfId: number | null): Promise<void> {
  await s.tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, ${vrfId ?? 0})`);
}

const where = (q: v.InferOutput<typeof PrefixListQuery>): (SQL | undefined)[] => [
  eqFilter(prefixes.vrf_id, q.vrf_id),
  eqFilter(prefixes.status, q.status),
  eqFilter(prefixes.site_id, q.site_id),
  tagFilter(prefixes.tags, q.tag),
  q.within === undefined ? undefined : sql`${prefixes.prefix} << ${q.within}::cidr`,
  q.contains === undefined ? undefined : sql`${prefixes.prefix} >>= ${q.contains}::inet`,
  q.family === undefined ? undefined : sql`family(${prefixes.prefix}) = ${q.family}`,
];

async function requireUniqueIn(s: VerbScope, prefix: string, vrfId: number | null, exceptId: number | undefined): Promise<void> {
  await lockVrf(s, vrfId);
  if (vrfId !== null) {
    const [vrf] = await s.tx.select({ enforce: vrfs.enforce_unique }).from(vrfs).where(eq(vrfs.id, vrfId));
    if (!vrf?.enforce) return;
  }
  const [holder] = await queryRows<{ id: number }>(
    s.tx,
    sql`select id from ${prefixes} where prefix = ${prefix}::cidr and vrf_id is not distinct from ${vrfId}
        and id <> ${exceptId ?? 0} order by id limit 1`,
  );
  if (!holder) return;
  const where = vrfId === null ? "the global table" : `VRF ${vrfId}`;
  const msg = `${prefix} already exists in ${where} (prefix ${holder.id}).`;
  throw ApiError.conflict(msg, { fields: { prefix: msg }, existing_id: holder.id });
}

export const prefixDef = defineResource({
  label: "Prefix",
  entityType: "prefix",
  scopeResource: "networks",
  table: prefixes,
  columns: { id: prefixes.id, version: prefixes.version, tags: prefixes.tags },
  channels: ["inventory"],
  list: {
    sortable: {
      // cidr order: IPv4 before IPv6, then by network, a shorter prefix before the longer ones in it.
      prefix: prefixes.prefix,
      vrf_id: prefixes.vrf_id,
      status: prefixes.status,
      created_at: prefixes.created_at,
      updated_at: prefixes.updated_at,
    },
    search: [sql`${prefixes.prefix}::text`, prefixes.description],
  },
  filters: where,
  async toValues(s, input, existing) {
    await requireOptionalRow(s.tx, vrfs, vrfs.id, input.vrf_id, "VRF", "vrf_id");
    await requireOptionalRow(s.tx, sites, sites.id, input.site_id, "Site", "site_id");
    await requireOptionalRow(s.tx, vlans, vlans.id, input.vlan_id, "VLAN", "vlan_id");
    if ("prefix" in input || "vrf_id" in input) {
      const prefix = input.prefix ?? existing!.prefix;
      const vrfId = "vrf_id" in input ? (input.vrf_id ?? null) : (existing?.vrf_id ?? null);
      await requireUniqueIn(s, prefix, vrfId, existing?.id);
    }
    return input;
  },
  async present(db, rows) {
    const [vrfNames, siteNames, facts] = await Promise.all([
      namesById(
        db,
        vrfs,
        vrfs.id,
        vrfs.name,
        rows.map((r) => r.vrf_id),
      ),
      namesById(
        db,
        sites,
        sites.id,
        sites.name,
        rows.map((r) => r.site_id),
      ),
      prefixFacts(db, rows),
    ]);
    return rows.map((r) => presentOne(r, vrfNames, siteNames, facts.get(r.id)!));
  },
});

function presentOne(r: Row, vrfNames: Map<number, string>, siteNames: Map<number, string>, facts: PrefixFacts) {
  const cidr = cidrOf(r.prefix);
  return {
    id: r.id,
    prefix: formatCidr(cidr),
    family: cidr.version,
    vrf_id: r.vrf_id,
    vrf_name: r.vrf_id == null ? null : (vrfNames.get(r.vrf_id) ?? null),
    status: r.status,
    is_pool: r.is_pool,
    mark_utilized: r.mark_utilized,
    site_id: r.site_id,
    site_name: r.site_id == null ? null : (siteNames.get(r.site_id) ?? null),
    vlan_id: r.vlan_id,
    description: r.description,
    ...facts,
    tags: r.tags,
    version: r.version,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
