// Attaching documents to inventory objects: POST/DELETE /docs/attach, GET /docs/by-entity and
// GET /docs/{doc_id}/entities. The object must exist when attached (422); names are looked up on read.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { docEntities, docs } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { presentDoc } from "./def.ts";
import { type EntityRef, entityNames, LABELS, type EntityType, refKey, requireEntity } from "./entity-refs.ts";

export interface Attachment extends EntityRef {
  doc_id: number;
}

async function requireDoc(db: Db, id: number, loc?: string[]): Promise<void> {
  const [row] = await db.select({ id: docs.id }).from(docs).where(eq(docs.id, id));
  if (row) return;
  if (loc) throw ApiError.validation([{ loc, msg: `Document ${id} was not found.`, type: "foreign_key" }]);
  throw ApiError.notFound("Document", id);
}

const matches = (a: Attachment) =>
  and(eq(docEntities.doc_id, a.doc_id), eq(docEntities.entity_type, a.entity_type), eq(docEntities.entity_id, a.entity_id));

const describe = (a: Attachment) => `${LABELS[a.entity_type as EntityType]} ${a.entity_id}`;

export const attachDoc = defineVerb({ scope: "write:docs" }, async (s, input: Attachment) => {
  await requireDoc(s.tx, input.doc_id, ["body", "doc_id"]);
  const name = await requireEntity(s.tx, input);
  const [row] = await s.tx.insert(docEntities).values(input).onConflictDoNothing().returning();
  if (!row) throw ApiError.conflict(`Document ${input.doc_id} is already attached to ${describe(input)}.`);
  s.audit({ action: "doc.attach", category: "inventory", entity_type: "doc", entity_id: input.doc_id, diff: { after: input } });
  s.emit("inventory", { entity: "doc", action: "attach", id: input.doc_id });
  return { ...row, entity_name: name };
});

export const detachDoc = defineVerb({ scope: "write:docs" }, async (s, input: Attachment) => {
  const [row] = await s.tx.delete(docEntities).where(matches(input)).returning();
  if (!row) throw ApiError.notFound("Attachment of document", `${input.doc_id} to ${describe(input)}`);
  s.audit({ action: "doc.detach", category: "inventory", entity_type: "doc", entity_id: input.doc_id, diff: { before: input } });
  s.emit("inventory", { entity: "doc", action: "detach", id: input.doc_id });
});

/** The documents attached to one object (the object need not exist any more). */
export const docsByEntity = defineRead({ scope: "read:docs" }, async (ctx, ref: EntityRef) => {
  const rows = await ctx.db
    .select({ doc: docs })
    .from(docEntities)
    .innerJoin(docs, eq(docs.id, docEntities.doc_id))
    .where(and(eq(docEntities.entity_type, ref.entity_type), eq(docEntities.entity_id, ref.entity_id)))
    .orderBy(asc(docs.title), asc(docs.id));
  return rows.map((r) => presentDoc(r.doc));
});

/** What one document is attached to, with names (null where the object has since been deleted). */
export const entitiesOfDoc = defineRead({ scope: "read:docs" }, async (ctx, { docId }: { docId: number }) => {
  await requireDoc(ctx.db, docId);
  const rows = await ctx.db
    .select({ entity_type: docEntities.entity_type, entity_id: docEntities.entity_id })
    .from(docEntities)
    .where(eq(docEntities.doc_id, docId))
    .orderBy(asc(docEntities.entity_type), asc(docEntities.entity_id));
  const names = await entityNames(ctx.db, rows);
  return rows.map((r) => ({ ...r, name: names.get(refKey(r.entity_type, r.entity_id)) ?? null }));
});
