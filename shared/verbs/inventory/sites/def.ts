// Sites: the name is unique. Deleting a site detaches what was there (hardware, networks, VLANs get
// site_id null, the foreign keys do it), unless a VLAN of the site would then collide with a site-less
// VLAN of the same tag: that is a 409 naming both. A site with racks cannot be deleted (409 naming
// them): a rack is always at a site (ADR 0480).
import { and, eq, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { racks, sites, vlans } from "../../../db/schema/index.ts";
import { dependentsConflict, refuseWhileDependents } from "../../resources/dependents-conflict.ts";
import { withIsoTimestamps } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireUnique } from "../../resources/row-checks.ts";

export const siteVerbs = resourceVerbs(
  defineResource({
    label: "Site",
    entityType: "site",
    scopeResource: "sites",
    table: sites,
    columns: { id: sites.id, version: sites.version },
    channels: ["inventory"],
    list: {
      sortable: { name: sites.name, created_at: sites.created_at, updated_at: sites.updated_at },
      search: [sites.name, sites.description, sites.address],
    },
    async toValues(s, input, existing) {
      if ("name" in input)
        await requireUnique(s.tx, {
          table: sites,
          id: sites.id,
          column: sites.name,
          value: input.name,
          exceptId: existing?.id,
          field: "name",
          label: "Site",
        });
      return input;
    },
    async beforeDelete(s, row) {
      const where = eq(racks.site_id, row.id);
      await refuseWhileDependents(s.tx, "Site", row.id, { type: "rack", table: racks, id: racks.id, name: racks.name, where });
      const loose = alias(vlans, "loose");
      const clashes = await s.tx
        .select({ id: vlans.id, name: vlans.name, vlan_id: vlans.vlan_id, loose_id: loose.id })
        .from(vlans)
        .innerJoin(loose, and(eq(loose.vlan_id, vlans.vlan_id), isNull(loose.site_id)))
        .where(eq(vlans.site_id, row.id));
      if (clashes.length > 0)
        throw dependentsConflict(
          "Site",
          row.id,
          clashes.map((c) => ({ type: "vlan", id: c.id, name: `${c.name}: tag ${c.vlan_id} also on site-less VLAN record ${c.loose_id}` })),
        );
    },
    async present(_db, rows) {
      return rows.map(withIsoTimestamps);
    },
  }),
);
