// Hostname patterns of the knowledge base (discovery matches a device's hostname against them), a
// resource of the resource engine keyed by id. Writes need write:kb, deletes delete:kb: by the spec's
// role table only administrators hold them.
import { and, asc, eq, ne } from "drizzle-orm";
import { kbHostnames } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { iso } from "../resources/present.ts";
import { defineResource } from "../resources/resource-def.ts";
import { resourceVerbs } from "../resources/resource-verbs.ts";
import { defineRead } from "../verb.ts";
import { bulkImport } from "./bulk-upsert.ts";

export const hostnameVerbs = resourceVerbs(
  defineResource({
    label: "Hostname pattern",
    entityType: "kb_hostname",
    scopeResource: "kb",
    table: kbHostnames,
    columns: { id: kbHostnames.id },
    list: {
      sortable: {
        pattern: kbHostnames.pattern,
        vendor: kbHostnames.vendor,
        device_type: kbHostnames.device_type,
        created_at: kbHostnames.created_at,
        updated_at: kbHostnames.updated_at,
      },
      search: [kbHostnames.pattern, kbHostnames.vendor, kbHostnames.device_type],
    },
    async toValues(s, input, existing) {
      if (typeof input.pattern === "string") {
        const [taken] = await s.tx
          .select({ id: kbHostnames.id })
          .from(kbHostnames)
          .where(and(eq(kbHostnames.pattern, input.pattern), existing ? ne(kbHostnames.id, existing.id) : undefined));
        if (taken)
          throw ApiError.conflict(`The pattern "${input.pattern}" is already entry ${taken.id}.`, { fields: { pattern: "already taken" } });
      }
      return input;
    },
    async present(_db, rows) {
      return rows.map((r) => ({
        id: r.id,
        pattern: r.pattern,
        vendor: r.vendor,
        device_type: r.device_type,
        notes: r.notes,
        created_at: iso(r.created_at)!,
        updated_at: iso(r.updated_at)!,
      }));
    },
  }),
);

export const importHostnames = bulkImport({ table: kbHostnames, key: kbHostnames.pattern, keyName: "pattern", action: "kb.hostname" });

export const exportHostnames = defineRead({ scope: "read:kb" }, async (ctx, _input: void) => {
  const rows = await ctx.db.select().from(kbHostnames).orderBy(asc(kbHostnames.pattern));
  return {
    format: "kb-hostname/v1",
    exported_at: ctx.clock.now().toISOString(),
    entries: rows.map(({ pattern, vendor, device_type, notes }) => ({ pattern, vendor, device_type, notes })),
  };
});
