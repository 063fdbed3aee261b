// MAC OUI prefixes of the knowledge base ("AA:BB:CC" -> vendor), keyed by the prefix itself.
// Writes need write:kb, deletes delete:kb (administrators, by the spec's role table).
import { asc, eq } from "drizzle-orm";
import { kbOui } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { VerbContext } from "../verb-context.ts";
import { listPage } from "../inventory/list.ts";
import { iso } from "../inventory/present.ts";
import { requireScope, runInTransaction, type VerbScope } from "../verb.ts";
import { bulkUpsert } from "./bulk-upsert.ts";

type Row = typeof kbOui.$inferSelect;
export interface OuiInput {
  prefix: string;
  vendor: string;
  notes?: string | null | undefined;
}

const present = (r: Row) => ({ prefix: r.prefix, vendor: r.vendor, notes: r.notes, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! });
const LIST = { table: kbOui, id: kbOui.prefix, sortable: { prefix: kbOui.prefix, vendor: kbOui.vendor, created_at: kbOui.created_at, updated_at: kbOui.updated_at }, search: [kbOui.prefix, kbOui.vendor] };

export async function listOui({ ctx, params }: { ctx: VerbContext; params: ListParams }) {
  requireScope(ctx, "read:kb");
  return listPage<Row, ReturnType<typeof present>>(ctx.db, LIST, params, [], (rows) => rows.map(present));
}

async function lockOui(s: VerbScope, prefix: string): Promise<Row> {
  const [row] = await s.tx.select().from(kbOui).where(eq(kbOui.prefix, prefix)).for("update");
  if (!row) throw ApiError.notFound("OUI prefix", prefix);
  return row;
}

const audit = (s: VerbScope, action: string, prefix: string, diff: unknown) =>
  s.audit({ action: `kb.oui.${action}`, category: "inventory", entity_type: "kb_oui", entity_id: prefix, diff });

export async function createOui({ ctx, input }: { ctx: VerbContext; input: OuiInput }) {
  requireScope(ctx, "write:kb");
  return runInTransaction(ctx, {}, async (s) => {
    const [row] = await s.tx.insert(kbOui).values({ ...input, notes: input.notes ?? null }).onConflictDoNothing().returning();
    if (!row) throw ApiError.conflict(`The OUI prefix ${input.prefix} is already in the knowledge base.`, { fields: { prefix: "already taken" } });
    audit(s, "create", row.prefix, { after: { prefix: row.prefix, vendor: row.vendor, notes: row.notes } });
    return present(row);
  });
}

export async function updateOui({ ctx, prefix, input }: { ctx: VerbContext; prefix: string; input: Omit<OuiInput, "prefix"> }) {
  requireScope(ctx, "write:kb");
  return runInTransaction(ctx, {}, async (s) => {
    const before = await lockOui(s, prefix);
    const values = { vendor: input.vendor, notes: input.notes ?? null };
    const [after] = await s.tx.update(kbOui).set({ ...values, updated_at: s.now }).where(eq(kbOui.prefix, prefix)).returning();
    audit(s, "update", prefix, { before: { vendor: before.vendor, notes: before.notes }, after: values });
    return present(after!);
  });
}

export async function deleteOui({ ctx, prefix }: { ctx: VerbContext; prefix: string }): Promise<void> {
  requireScope(ctx, "delete:kb");
  await runInTransaction(ctx, {}, async (s) => {
    const row = await lockOui(s, prefix);
    await s.tx.delete(kbOui).where(eq(kbOui.prefix, prefix));
    audit(s, "delete", prefix, { before: { prefix, vendor: row.vendor, notes: row.notes } });
  });
}

export async function importOui({ ctx, entries }: { ctx: VerbContext; entries: OuiInput[] }) {
  requireScope(ctx, "write:kb");
  return runInTransaction(ctx, {}, (s) => bulkUpsert(s, { table: kbOui, key: kbOui.prefix, keyName: "prefix", action: "kb.oui" }, entries as unknown as Record<string, unknown>[]));
}

export async function exportOui({ ctx }: { ctx: VerbContext }) {
  requireScope(ctx, "read:kb");
  const rows = await ctx.db.select().from(kbOui).orderBy(asc(kbOui.prefix));
  return { format: "kb-oui/v1", exported_at: ctx.clock.now().toISOString(), entries: rows.map(({ prefix, vendor, notes }) => ({ prefix, vendor, notes })) };
}
