// The inventory's object kinds by the type the audit log names them with (its entity_type): each kind's
// table, id and naming column, its label for messages and the scope resource its read and write scopes
// are built from. What refers to "any inventory object" by (type, id) reads them here: the names
// lookup (docs/adr/0468) and the journal (docs/adr/0485).
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import { requireScope } from "../verb.ts";
import type { VerbContext } from "../verb-context.ts";
import {
  categories,
  computeUnits,
  environments,
  externalNodes,
  hardware,
  hardwareClusters,
  ipAddresses,
  miscItems,
  networks,
  services,
  sites,
  storage,
  vlans,
} from "../../db/schema/index.ts";

export interface ObjectKind {
  table: PgTable;
  id: PgColumn;
  name: PgColumn;
  label: string;
  /** read:<scope>, write:<scope> (the kind's resource definition's scopeResource). */
  scope: string;
}

const kind = (table: PgTable, id: PgColumn, name: PgColumn, label: string, scope: string): ObjectKind => ({
  table,
  id,
  name,
  label,
  scope,
});

export const OBJECT_KINDS = {
  hardware: kind(hardware, hardware.id, hardware.name, "Hardware node", "hardware"),
  compute_unit: kind(computeUnits, computeUnits.id, computeUnits.name, "Compute unit", "compute"),
  service: kind(services, services.id, services.name, "Service", "services"),
  network: kind(networks, networks.id, networks.name, "Network", "networks"),
  storage: kind(storage, storage.id, storage.name, "Storage item", "storage"),
  cluster: kind(hardwareClusters, hardwareClusters.id, hardwareClusters.name, "Hardware cluster", "clusters"),
  external_node: kind(externalNodes, externalNodes.id, externalNodes.name, "External node", "external"),
  misc: kind(miscItems, miscItems.id, miscItems.name, "Misc item", "misc"),
  site: kind(sites, sites.id, sites.name, "Site", "sites"),
  vlan: kind(vlans, vlans.id, vlans.name, "VLAN", "networks"),
  ip_address: kind(ipAddresses, ipAddresses.id, ipAddresses.address, "IP address", "networks"),
  environment: kind(environments, environments.id, environments.name, "Environment", "services"),
  category: kind(categories, categories.id, categories.name, "Category", "services"),
} as const satisfies Record<string, ObjectKind>;

export type ObjectType = keyof typeof OBJECT_KINDS;
export const OBJECT_TYPES = Object.keys(OBJECT_KINDS) as ObjectType[];

export const readScopeOf = (type: ObjectType) => `read:${OBJECT_KINDS[type].scope}`;
export const writeScopeOf = (type: ObjectType) => `write:${OBJECT_KINDS[type].scope}`;

/** 401/403 unless the caller may read (or write) objects of this kind. */
export function requireKindScope(ctx: VerbContext, type: ObjectType, access: "read" | "write"): void {
  requireScope(ctx, access === "read" ? readScopeOf(type) : writeScopeOf(type));
}

/** 404 naming the object when it is not there. */
export async function requireObject(db: Db, type: ObjectType, id: number): Promise<void> {
  const { table, id: idColumn, label } = OBJECT_KINDS[type];
  const [row] = await db.select({ id: idColumn }).from(table).where(eq(idColumn, id)).limit(1);
  if (!row) throw ApiError.notFound(label, id);
}
