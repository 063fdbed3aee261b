// Racks at a site (issue 33 item 1, ADR 0480). The name is unique per site; a rack cannot shrink below
// what it holds, move to another site with nodes in it, or be deleted while nodes are mounted in it
// (409 naming them; its reservations go with it). Each rack answers with its utilisation.
import { and, eq, gt, ne, or, sql } from "drizzle-orm";
import type * as v from "valibot";
import { hardware, rackReservations, racks, sites } from "../../../db/schema/index.ts";
import { heightOf, type Utilisation } from "../../../domain/racks/rack-units.ts";
import { ApiError } from "../../../errors.ts";
import type { RackListQuery } from "../../../schemas/racks.ts";
import { refuseWhileDependents } from "../../resources/dependents-conflict.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireRow, requireUnique } from "../../resources/row-checks.ts";
import type { VerbScope } from "../../verb.ts";
import { utilisationsOf } from "./occupants.ts";

type Row = typeof racks.$inferSelect;

/** 409 when the rack would end below a node or a reservation it holds. */
async function refuseShrink(s: VerbScope, rack: Row, height: number): Promise<void> {
  const top = sql<number>`${hardware.rack_unit} + coalesce(${hardware.u_height}, 1) - 1`;
  const [node] = await s.tx
    .select({ id: hardware.id, name: hardware.name, first: hardware.rack_unit, u: hardware.u_height })
    .from(hardware)
    .where(and(eq(hardware.rack_id, rack.id), gt(top, height)))
    .orderBy(sql`${top} desc`)
    .limit(1);
  const [reservation] = await s.tx
    .select()
    .from(rackReservations)
    .where(and(eq(rackReservations.rack_id, rack.id), gt(sql`${rackReservations.first_unit} + ${rackReservations.u_count} - 1`, height)))
    .limit(1);
  const what = node
    ? `hardware '${node.name}' (id ${node.id}) reaches unit ${node.first! + heightOf(node.u) - 1}`
    : reservation
      ? `reservation ${reservation.id} (${reservation.reason}) reaches unit ${reservation.first_unit + reservation.u_count - 1}`
      : undefined;
  if (!what) return;
  const msg = `Rack '${rack.name}' (id ${rack.id}) cannot be ${height} U: ${what}.`;
  throw ApiError.conflict(msg, { fields: { u_height: msg } });
}

/** 409 when a rack holding nodes would move to another site (its nodes would be at the wrong one). */
async function refuseMove(s: VerbScope, rack: Row, siteId: number): Promise<void> {
  const nodes = await s.tx
    .select({ id: hardware.id, name: hardware.name })
    .from(hardware)
    .where(and(eq(hardware.rack_id, rack.id), or(ne(hardware.site_id, siteId), sql`${hardware.site_id} is null`)))
    .limit(10);
  if (nodes.length === 0) return;
  const msg = `Rack '${rack.name}' (id ${rack.id}) holds nodes of its site (${nodes.map((n) => `'${n.name}' (id ${n.id})`).join(", ")}): move them first.`;
  throw ApiError.conflict(msg, { fields: { site_id: msg } });
}

export const rackVerbs = resourceVerbs(
  defineResource({
    label: "Rack",
    entityType: "rack",
    scopeResource: "racks",
    table: racks,
    columns: { id: racks.id, version: racks.version, tags: racks.tags },
    channels: ["inventory"],
    list: {
      sortable: { name: racks.name, u_height: racks.u_height, created_at: racks.created_at, updated_at: racks.updated_at },
      search: [racks.name, racks.facility_id, racks.description],
    },
    filters: (q: v.InferOutput<typeof RackListQuery>) => [eqFilter(racks.site_id, q.site_id), tagFilter(racks.tags, q.tag)],
    async toValues(s, input, existing) {
      if (input.site_id !== undefined) await requireRow(s.tx, sites, sites.id, input.site_id, "Site", "site_id");
      if ("name" in input || "site_id" in input) {
        const site = input.site_id ?? existing!.site_id;
        await requireUnique(
          s.tx,
          {
            table: racks,
            id: racks.id,
            column: racks.name,
            value: input.name ?? existing?.name,
            exceptId: existing?.id,
            also: eq(racks.site_id, site),
            field: "name",
            label: "Rack",
          },
          (id) => `Rack ${id} of site ${site}`,
        );
      }
      if (existing && input.u_height !== undefined && input.u_height < existing.u_height) await refuseShrink(s, existing, input.u_height);
      if (existing && input.site_id !== undefined && input.site_id !== existing.site_id) await refuseMove(s, existing, input.site_id);
      return input;
    },
    async beforeDelete(s, row) {
      const where = eq(hardware.rack_id, row.id);
      await refuseWhileDependents(s.tx, "Rack", row.id, { type: "hardware", table: hardware, id: hardware.id, name: hardware.name, where });
    },
    async present(db, rows) {
      const [names, utilisation] = await Promise.all([
        namesById(
          db,
          sites,
          sites.id,
          sites.name,
          rows.map((r) => r.site_id),
        ),
        utilisationsOf(db, rows),
      ]);
      return rows.map((r) => presentOne(r, names.get(r.site_id) ?? "", utilisation.get(r.id)!));
    },
  }),
);

function presentOne(r: Row, siteName: string, utilisation: Utilisation) {
  return {
    id: r.id,
    site_id: r.site_id,
    site_name: siteName,
    name: r.name,
    u_height: r.u_height,
    numbering: r.numbering as "bottom_up" | "top_down",
    width: r.width,
    facility_id: r.facility_id,
    description: r.description,
    tags: r.tags,
    utilisation,
    version: r.version,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
