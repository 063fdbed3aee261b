// VLAN records: a tag is unique per site (and once among the records without a site). Networks carry
// the tag as a number, not a reference, so deleting a record changes no network.
import { eq, isNull } from "drizzle-orm";
import type * as v from "valibot";
import { sites, vlans } from "../../../db/schema/index.ts";
import type { VlanListQuery } from "../../../schemas/vlans.ts";
import { eqFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireOptionalRow, requireUnique } from "../../resources/row-checks.ts";

type Row = typeof vlans.$inferSelect;

export const vlanVerbs = resourceVerbs(
  defineResource({
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
    filters: (q: v.InferOutput<typeof VlanListQuery>) => [eqFilter(vlans.site_id, q.site_id), eqFilter(vlans.vlan_id, q.vlan_id)],
    async toValues(s, input, existing) {
      await requireOptionalRow(s.tx, sites, sites.id, input.site_id, "Site", "site_id");
      if ("vlan_id" in input || "site_id" in input) {
        const merged = { ...existing, ...input } as Partial<Row>;
        const site = merged.site_id ?? null;
        await requireUnique(
          s.tx,
          {
            table: vlans,
            id: vlans.id,
            column: vlans.vlan_id,
            value: merged.vlan_id,
            exceptId: existing?.id,
            also: site === null ? isNull(vlans.site_id) : eq(vlans.site_id, site),
            field: "vlan_id",
            label: "VLAN",
          },
          (id) => `VLAN record ${id} (${site === null ? "no site" : `site ${site}`})`,
        );
      }
      return input;
    },
    async present(db, rows) {
      const names = await namesById(
        db,
        sites,
        sites.id,
        sites.name,
        rows.map((r) => r.site_id),
      );
      return rows.map((r) => presentOne(r, names));
    },
  }),
);

function presentOne(r: Row, siteNames: Map<number, string>) {
  return {
    id: r.id,
    vlan_id: r.vlan_id,
    name: r.name,
    description: r.description,
    site_id: r.site_id,
    site_name: r.site_id == null ? null : (siteNames.get(r.site_id) ?? null),
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
