// MAC OUI prefixes of the knowledge base ("AA:BB:CC" -> vendor), a resource of the resource engine
// keyed by the prefix itself. Writes need write:kb, deletes delete:kb (administrators, by the spec's role
// table). Its audit actions are kb.oui.*, and it announces nothing (nothing listens for it).
import { asc, eq } from "drizzle-orm";
import { kbOui } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { iso } from "../resources/present.ts";
import { defineResource } from "../resources/resource-def.ts";
import { resourceVerbs } from "../resources/resource-verbs.ts";
import { defineRead } from "../verb.ts";
import { bulkImport } from "./bulk-upsert.ts";

export const ouiVerbs = resourceVerbs(
  defineResource({
    label: "OUI prefix",
    entityType: "kb_oui",
    auditPrefix: "kb.oui",
    scopeResource: "kb",
    table: kbOui,
    columns: { id: kbOui.prefix },
    channels: [],
    list: {
      sortable: { prefix: kbOui.prefix, vendor: kbOui.vendor, created_at: kbOui.created_at, updated_at: kbOui.updated_at },
      search: [kbOui.prefix, kbOui.vendor],
    },
    async toValues(s, input, existing) {
      if (!existing && input.prefix !== undefined) {
        const [taken] = await s.tx.select({ prefix: kbOui.prefix }).from(kbOui).where(eq(kbOui.prefix, input.prefix));
        if (taken)
          throw ApiError.conflict(`The OUI prefix ${input.prefix} is already in the knowledge base.`, {
            fields: { prefix: "already taken" },
          });
      }
      return input;
    },
    async present(_db, rows) {
      return rows.map((r) => ({
        prefix: r.prefix,
        vendor: r.vendor,
        notes: r.notes,
        created_at: iso(r.created_at)!,
        updated_at: iso(r.updated_at)!,
      }));
    },
  }),
);

export const importOui = bulkImport({ table: kbOui, key: kbOui.prefix, keyName: "prefix", action: "kb.oui" });

export const exportOui = defineRead({ scope: "read:kb" }, async (ctx, _input: void) => {
  const rows = await ctx.db.select().from(kbOui).orderBy(asc(kbOui.prefix));
  return {
    format: "kb-oui/v1",
    exported_at: ctx.clock.now().toISOString(),
    entries: rows.map(({ prefix, vendor, notes }) => ({ prefix, vendor, notes })),
  };
});
