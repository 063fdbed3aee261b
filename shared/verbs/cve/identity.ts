// The identity an asset is assessed under: the operator's (asset_identities, provenance operator), which
// always wins, else the one derived from the inventory record's fields (inventory-identity.ts) with the
// record's own version counter as its revision. GET|PUT|DELETE /cve/identity/{type}/{id} read and set
// the operator's.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { assetIdentities, computeUnits, hardware, services } from "../../db/schema/index.ts";
import { computeUnitIdentity, type DerivedIdentity, hardwareIdentity, serviceIdentity } from "../../domain/cve/inventory-identity.ts";
import { versionScheme } from "../../domain/cve/version.ts";

export const ENTITY_TYPES = ["hardware", "compute_unit", "service"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export const isEntityType = (t: string): t is EntityType => (ENTITY_TYPES as readonly string[]).includes(t);

export interface AssetIdentity {
  vendor: string;
  product: string;
  version: string | null;
  version_scheme: "dotted_numeric" | null;
  provenance: "inventory" | "operator";
  revision: number;
}

export interface ResolvedAsset {
  entity_type: EntityType;
  entity_id: number;
  name: string;
  identity: AssetIdentity | null;
}

const TABLES = { hardware, compute_unit: computeUnits, service: services } as const;

function derive(type: EntityType, row: Record<string, unknown>): DerivedIdentity | null {
  if (type === "hardware") return hardwareIdentity(row as { vendor: string | null; model: string | null });
  if (type === "compute_unit") return computeUnitIdentity(row as { os: string | null });
  return serviceIdentity(row as { name: string });
}

const withScheme = (d: DerivedIdentity, provenance: AssetIdentity["provenance"], revision: number): AssetIdentity => ({
  vendor: d.vendor,
  product: d.product,
  version: d.version,
  version_scheme: versionScheme(d.version),
  provenance,
  revision,
});

/** The assets of one type (all, or the ids given) with their identities; missing ids are absent. */
export async function resolveAssets(db: Db, type: EntityType, ids?: readonly number[]): Promise<ResolvedAsset[]> {
  const table = TABLES[type];
  const rows = (await db
    .select()
    .from(table)
    .where(ids ? inArray(table.id, [...ids]) : undefined)) as unknown as (Record<string, unknown> & {
    id: number;
    name: string;
    version: number;
  })[];
  if (rows.length === 0) return [];
  const operator = await db
    .select()
    .from(assetIdentities)
    .where(
      and(
        eq(assetIdentities.entity_type, type),
        eq(assetIdentities.provenance, "operator"),
        ids ? inArray(assetIdentities.entity_id, [...ids]) : undefined,
      ),
    );
  const byId = new Map(operator.map((o) => [o.entity_id, o]));
  return rows.map((r) => {
    const o = byId.get(r.id);
    let identity: AssetIdentity | null = null;
    if (o?.vendor && o.product) identity = withScheme({ vendor: o.vendor, product: o.product, version: o.version }, "operator", o.revision);
    else {
      const d = derive(type, r);
      if (d) identity = withScheme(d, "inventory", r.version);
    }
    return { entity_type: type, entity_id: r.id, name: r.name, identity };
  });
}
