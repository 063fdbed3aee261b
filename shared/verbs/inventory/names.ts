// GET /inventory/names: the names of the inventory records a screen refers to by id, every kind in one
// query (docs/adr/0468). The console shows a reference as the record's name with a link, and a page of
// references would otherwise be one request each. Each kind asked needs its own read scope: a kind the
// caller cannot read is refused (403) rather than quietly left out, so a missing name always means a
// record that is not there.
import { inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { queryRows } from "../../db/database.ts";
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
import { ApiError } from "../../errors.ts";
import { actorCan } from "../actor.ts";
import { defineRead } from "../verb.ts";

/** type (the audit log's entity_type) -> its table, id and naming column, and the scope reading it. */
const KINDS = {
  hardware: [hardware, hardware.id, hardware.name, "read:hardware"],
  compute_unit: [computeUnits, computeUnits.id, computeUnits.name, "read:compute"],
  service: [services, services.id, services.name, "read:services"],
  network: [networks, networks.id, networks.name, "read:networks"],
  storage: [storage, storage.id, storage.name, "read:storage"],
  cluster: [hardwareClusters, hardwareClusters.id, hardwareClusters.name, "read:clusters"],
  external_node: [externalNodes, externalNodes.id, externalNodes.name, "read:external"],
  misc: [miscItems, miscItems.id, miscItems.name, "read:misc"],
  site: [sites, sites.id, sites.name, "read:sites"],
  vlan: [vlans, vlans.id, vlans.name, "read:networks"],
  ip_address: [ipAddresses, ipAddresses.id, ipAddresses.address, "read:networks"],
  environment: [environments, environments.id, environments.name, "read:services"],
  category: [categories, categories.id, categories.name, "read:services"],
} as const satisfies Record<string, readonly [PgTable, PgColumn, PgColumn, string]>;

export type NamedKind = keyof typeof KINDS;
export const NAMED_KINDS = Object.keys(KINDS) as NamedKind[];

export type NamesInput = Partial<Record<NamedKind, number[]>>;
export interface NamedRecord {
  type: NamedKind;
  id: number;
  name: string;
}

const asked = (input: NamesInput) => NAMED_KINDS.filter((k) => (input[k]?.length ?? 0) > 0);

export const lookUpNames = defineRead<NamesInput, { items: NamedRecord[] }>(
  {
    scope: (ctx, input) => {
      if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
      const denied = asked(input).filter((k) => !actorCan(ctx.actor!, KINDS[k][3]));
      if (denied.length > 0)
        throw ApiError.forbidden(`Looking up ${denied.join(", ")} needs ${[...new Set(denied.map((k) => KINDS[k][3]))].join(", ")}.`);
    },
  },
  async (ctx, input) => {
    const kinds = asked(input);
    if (kinds.length === 0) return { items: [] };
    // One statement: a branch per kind asked, each an index lookup of at most a list page of ids.
    const branches: SQL[] = kinds.map((k) => {
      const [table, id, name] = KINDS[k];
      const ids = [...new Set(input[k])];
      return sql`(select ${k}::text as type, ${id} as id, ${name}::text as name from ${table} where ${inArray(id, ids)})`;
    });
    const rows = await queryRows<NamedRecord>(ctx.db, sql.join(branches, sql` union all `));
    return { items: rows.map((r) => ({ ...r, id: Number(r.id) })) };
  },
);
