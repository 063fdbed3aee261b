// VRFs: name and route distinguisher each unique (409 naming the holder). Turning enforce_unique on
// while the VRF holds duplicate prefixes is a 409 naming them; a VRF with prefixes cannot be deleted.
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type * as v from "valibot";
import { queryRows } from "../../../db/database.ts";
import { prefixes, vrfs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { VrfListQuery } from "../../../schemas/vrfs.ts";
import { dependentsConflict } from "../../resources/dependents-conflict.ts";
import { tagFilter } from "../../resources/filters.ts";
import { iso } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireUnique } from "../../resources/row-checks.ts";

type Row = typeof vrfs.$inferSelect;

export const vrfVerbs = resourceVerbs(
  defineResource({
    label: "VRF",
    entityType: "vrf",
    scopeResource: "networks",
    table: vrfs,
    columns: { id: vrfs.id, version: vrfs.version, tags: vrfs.tags },
    channels: ["inventory"],
    list: {
      sortable: { name: vrfs.name, rd: vrfs.rd, created_at: vrfs.created_at, updated_at: vrfs.updated_at },
      search: [vrfs.name, vrfs.rd, vrfs.description],
    },
    filters: (q: v.InferOutput<typeof VrfListQuery>) => [tagFilter(vrfs.tags, q.tag)],
    async toValues(s, input, existing) {
      const unique = (field: "name" | "rd") =>
        requireUnique(s.tx, {
          table: vrfs,
          id: vrfs.id,
          column: vrfs[field],
          value: input[field],
          exceptId: existing?.id,
          field,
          label: "VRF",
        });
      if (input.name !== undefined) await unique("name");
      if (input.rd != null) await unique("rd");
      if (existing && input.enforce_unique === true && !existing.enforce_unique) {
        const dups = await queryRows<{ prefix: string; ids: number[] }>(
          s.tx,
          sql`select prefix::text as prefix, array_agg(id order by id) as ids from ${prefixes}
              where vrf_id = ${existing.id} group by prefix having count(*) > 1 order by prefix limit 10`,
        );
        if (dups.length > 0) {
          const list = dups.map((d) => `${d.prefix} (prefixes ${d.ids.join(", ")})`).join("; ");
          const msg = `VRF ${existing.id} holds duplicate prefixes: ${list}. Remove them before enforcing uniqueness.`;
          throw ApiError.conflict(msg, { fields: { enforce_unique: msg } });
        }
      }
      return input;
    },
    async beforeDelete(s, row) {
      const held = await s.tx
        .select({ id: prefixes.id, prefix: prefixes.prefix })
        .from(prefixes)
        .where(eq(prefixes.vrf_id, row.id))
        .orderBy(prefixes.prefix)
        .limit(11);
      if (held.length > 0)
        throw dependentsConflict(
          "VRF",
          row.id,
          held.map((p) => ({ type: "prefix", id: p.id, name: p.prefix })),
        );
    },
    async present(db, rows) {
      const ids = rows.map((r) => r.id);
      const counts =
        ids.length === 0
          ? []
          : await db
              .select({ vrf_id: prefixes.vrf_id, n: count() })
              .from(prefixes)
              .where(and(inArray(prefixes.vrf_id, ids)))
              .groupBy(prefixes.vrf_id);
      const byVrf = new Map(counts.map((c) => [c.vrf_id, c.n]));
      return rows.map((r) => presentOne(r, byVrf.get(r.id) ?? 0));
    },
  }),
);

function presentOne(r: Row, prefixCount: number) {
  return {
    id: r.id,
    name: r.name,
    rd: r.rd,
    description: r.description,
    enforce_unique: r.enforce_unique,
    prefix_count: prefixCount,
    tags: r.tags,
    version: r.version,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
