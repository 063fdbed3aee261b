// Hostname patterns of the knowledge base (discovery matches a device's hostname against them).
// Writes need write:kb, deletes delete:kb: by the spec's role table only administrators hold them.
import { and, asc, eq, ne } from "drizzle-orm";
import { kbHostnames } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { iso } from "../inventory/present.ts";
import type { ResourceDef } from "../inventory/resource.ts";
import { requireScope, runInTransaction } from "../verb.ts";
import { bulkUpsert } from "./bulk-upsert.ts";

type Row = typeof kbHostnames.$inferSelect;

export const hostnamesDef: ResourceDef<ReturnType<typeof presentHostname>> = {
  label: "Hostname pattern",
  entityType: "kb_hostname",
  scopeResource: "kb",
  table: kbHostnames,
  columns: { id: kbHostnames.id },
  list: {
    sortable: { pattern: kbHostnames.pattern, vendor: kbHostnames.vendor, device_type: kbHostnames.device_type, created_at: kbHostnames.created_at, updated_at: kbHostnames.updated_at },
    search: [kbHostnames.pattern, kbHostnames.vendor, kbHostnames.device_type],
  },
  async toValues(s, input, existing) {
    if (typeof input.pattern === "string") {
      const [taken] = await s.tx
        .select({ id: kbHostnames.id })
        .from(kbHostnames)
        .where(and(eq(kbHostnames.pattern, input.pattern), existing ? ne(kbHostnames.id, existing.id) : undefined));
      if (taken) throw ApiError.conflict(`The pattern "${input.pattern}" is already entry ${taken.id}.`, { fields: { pattern: "already taken" } });
    }
    return input;
  },
  async present(_db, rows) {
    return rows.map((r) => presentHostname(r as Row));
  },
};

export function presentHostname(r: Row) {
  return { id: r.id, pattern: r.pattern, vendor: r.vendor, device_type: r.device_type, notes: r.notes, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! };
}

export async function importHostnames({ ctx, entries }: { ctx: VerbContext; entries: Record<string, unknown>[] }) {
  requireScope(ctx, "write:kb");
  return runInTransaction(ctx, {}, (s) => bulkUpsert(s, { table: kbHostnames, key: kbHostnames.pattern, keyName: "pattern", action: "kb.hostname" }, entries));
}

export async function exportHostnames({ ctx }: { ctx: VerbContext }) {
  requireScope(ctx, "read:kb");
  const rows = await ctx.db.select().from(kbHostnames).orderBy(asc(kbHostnames.pattern));
  return {
    format: "kb-hostname/v1",
    exported_at: ctx.clock.now().toISOString(),
    entries: rows.map(({ pattern, vendor, device_type, notes }) => ({ pattern, vendor, device_type, notes })),
  };
}
