// VLAN records: a tag is unique per site (and once among the records without a site). Networks carry
// the tag as a number, not a reference, so deleting a record changes no network.
import { eq, isNull } from "drizzle-orm";
import { sites, vlans } from "../../../db/schema/index.ts";
import { iso, namesById } from "../present.ts";
import type { ResourceDef } from "../resource.ts";
import { requireOptionalRow, requireUnique } from "../row-checks.ts";

type Row = typeof vlans.$inferSelect;

export const vlanDef: ResourceDef<ReturnType<typeof presentOne>> = {
  label: "VLAN",
  entityType: "vlan",
  scopeResource: "networks",
  table: vlans,
  columns: { id: vlans.id, version: vlans.version },
  channels: ["inventory"],
  list: {
    sortable: { name: vlans.name, vlan_id: vlans.vlan_id, created_at: vlans.created_at, updated_at: vlans.updated_at },
    search: [vlans.name, vlans.description],
  },
  async toValues(s, input, existing) {
    await requireOptionalRow(s.tx, sites, sites.id, input.site_id, "Site", "site_id");
    if ("vlan_id" in input || "site_id" in input) {
      const merged = { ...existing, ...input } as Partial<Row>;
      const site = merged.site_id ?? null;
      await requireUnique(
        s.tx,
        { table: vlans, id: vlans.id, column: vlans.vlan_id, value: merged.vlan_id, exceptId: existing?.id, also: site === null ? isNull(vlans.site_id) : eq(vlans.site_id, site), field: "vlan_id", label: "VLAN" },
        (id) => `VLAN record ${id} (${site === null ? "no site" : `site ${site}`})`,
      );
    }
    return input;
  },
  async present(db, rows) {
    const names = await namesById(db, sites, sites.id, sites.name, rows.map((r) => r.site_id as number | null));
    return rows.map((r) => presentOne(r as Row, names));
  },
};

function presentOne(r: Row, siteNames: Map<number, string>) {
  return {
    id: r.id,
    vlan_id: r.vlan_id,
    name: r.name,
    description: r.description,
    site_id: r.site_id,
    site_name: r.site_id == null ? null : (siteNames.get(r.site_id) ?? null),
    version: r.version,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
