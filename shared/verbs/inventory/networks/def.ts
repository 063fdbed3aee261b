// Networks. The CIDR is stored canonical (the body schema refuses host bits); the gateway must lie
// inside it, and a CIDR change may not leave recorded addresses (IPAM, members) outside. Deleting a
// network removes its memberships, peerings and external-node links (links, not things); its IPAM
// records stay, detached (network_id null).
import { eq, sql } from "drizzle-orm";
import type * as v from "valibot";
import { contains, parseHost, parseNetwork } from "../../../domain/cidr-math.ts";
import { queryRows } from "../../../db/database.ts";
import { ipAddresses, networks, sites } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { NetworkListQuery } from "../../../schemas/networks.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireOptionalRow } from "../../resources/row-checks.ts";
import type { VerbScope } from "../../verb.ts";
import { inetSortKey } from "./inet-sort.ts";
import { prefixLinks } from "./prefix-link.ts";

type Row = typeof networks.$inferSelect;

function outside(field: string, msg: string): ApiError {
  return ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);
}

/** A CIDR change must keep every address recorded against the network inside it. */
async function addressesLeftOutside(s: VerbScope, id: number, cidrText: string): Promise<void> {
  const parsed = parseNetwork(cidrText);
  if (!parsed.ok) return;
  const list = await queryRows<{ what: string; ref: number; ip: string }>(
    s.tx,
    sql`
    select 'IPAM record' as what, id as ref, address as ip from ip_addresses where network_id = ${id}
    union all select 'compute unit', compute_id, ip_address from network_members where network_id = ${id} and ip_address is not null
    union all select 'hardware node', hardware_id, ip_address from network_hardware_members where network_id = ${id} and ip_address is not null`,
  );
  const off = list.filter((r) => {
    const ip = parseHost(r.ip);
    return ip !== undefined && !contains(parsed.value, ip);
  });
  if (off.length === 0) return;
  const names = off
    .slice(0, 10)
    .map((r) => `${r.ip} (${r.what} ${r.ref})`)
    .join(", ");
  throw ApiError.conflict(
    `Network ${id} cannot change to ${cidrText}: these addresses would be outside it: ${names}${off.length > 10 ? ` and ${off.length - 10} more` : ""}.`,
  );
}

const networkDef = defineResource({
  label: "Network",
  entityType: "network",
  scopeResource: "networks",
  table: networks,
  columns: { id: networks.id, version: networks.version, tags: networks.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: networks.name,
      vlan_id: networks.vlan_id,
      created_at: networks.created_at,
      updated_at: networks.updated_at,
      cidr: inetSortKey(networks.cidr),
    },
    search: [networks.name, networks.cidr, networks.gateway, networks.description],
  },
  filters: (q: v.InferOutput<typeof NetworkListQuery>) => [
    eqFilter(networks.site_id, q.site_id),
    eqFilter(networks.vlan_id, q.vlan_id),
    tagFilter(networks.tags, q.tag),
  ],
  async toValues(s, input, existing) {
    await requireOptionalRow(s.tx, sites, sites.id, input.site_id, "Site", "site_id");
    const cidr = "cidr" in input ? input.cidr : existing?.cidr;
    const gateway = "gateway" in input ? input.gateway : existing?.gateway;
    if (gateway) {
      const net = cidr ? parseNetwork(cidr) : undefined;
      if (!net) throw outside("gateway", "A gateway needs the network's cidr.");
      const ip = parseHost(gateway);
      if (net.ok && ip && !contains(net.value, ip)) throw outside("gateway", `Gateway ${gateway} is outside ${cidr}.`);
    }
    if (existing && cidr && cidr !== existing.cidr) await addressesLeftOutside(s, existing.id, cidr);
    return input;
  },
  async beforeDelete(s, row) {
    const detached = await s.tx
      .update(ipAddresses)
      .set({ network_id: null, updated_at: s.now })
      .where(eq(ipAddresses.network_id, row.id))
      .returning({ id: ipAddresses.id });
    if (detached.length > 0)
      s.audit({
        action: "network.ipam_detached",
        category: "inventory",
        entity_type: "network",
        entity_id: row.id,
        diff: { ip_address_ids: detached.map((d) => d.id) },
      });
  },
  async present(db, rows) {
    const [names, links] = await Promise.all([
      namesById(
        db,
        sites,
        sites.id,
        sites.name,
        rows.map((r) => r.site_id),
      ),
      prefixLinks(
        db,
        rows.map((r) => r.id),
      ),
    ]);
    return rows.map((r) => presentOne(r, names, links.get(r.id) ?? null));
  },
});

export const networkVerbs = resourceVerbs(networkDef);

function presentOne(r: Row, siteNames: Map<number, string>, prefixId: number | null) {
  return {
    id: r.id,
    name: r.name,
    cidr: r.cidr,
    vlan_id: r.vlan_id,
    gateway: r.gateway,
    dns_servers: r.dns_servers ?? [],
    description: r.description,
    site_id: r.site_id,
    site_name: r.site_id == null ? null : (siteNames.get(r.site_id) ?? null),
    prefix_id: prefixId,
    tags: r.tags,
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
