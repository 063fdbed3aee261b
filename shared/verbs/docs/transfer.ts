// GET /docs/export and POST /docs/import: every document with its attachments as one JSON file, and
// the same file read back. Import matches documents by title (updating those that exist, creating the
// rest) in one transaction; the attachments in the file replace a document's attachments, skipping
// objects this inventory does not have.
import { asc, eq, inArray, sql } from "drizzle-orm";
import { docEntities, docs } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { iso } from "../resources/present.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";
import { type EntityRef, entityNames, type EntityType, refKey } from "./entity-refs.ts";
import { refuseRepeats } from "./repeats.ts";

export const EXPORT_FORMAT = "docs-export/v1" as const;

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    out.set(k, [...(out.get(k) ?? []), item]);
  }
  return out;
}

export const exportDocs = defineRead({ scope: "read:docs" }, async (ctx, _input: void) => {
  const [rows, links] = await Promise.all([
    ctx.db.select().from(docs).orderBy(asc(docs.id)),
    ctx.db.select().from(docEntities).orderBy(asc(docEntities.doc_id), asc(docEntities.entity_type), asc(docEntities.entity_id)),
  ]);
  const byDoc = groupBy(links, (l) => l.doc_id);
  return {
    format: EXPORT_FORMAT,
    exported_at: ctx.clock.now().toISOString(),
    docs: rows.map((d) => ({
      title: d.title,
      body_md: d.body_md,
      category: d.category,
      pinned: d.pinned,
      created_at: iso(d.created_at),
      updated_at: iso(d.updated_at),
      // Attach and import store only the known entity types (the column is plain text).
      attachments: (byDoc.get(d.id) ?? []).map(({ entity_type, entity_id }) => ({ entity_type: entity_type as EntityType, entity_id })),
    })),
  };
});

export interface ImportDoc {
  title: string;
  body_md: string;
  category?: string | null | undefined;
  pinned: boolean;
  attachments?: EntityRef[] | undefined;
}

/** title -> id of the existing documents with these titles; a title held by two documents is ambiguous (409). */
async function existingByTitle(s: VerbScope, titles: string[]): Promise<Map<string, number>> {
  if (titles.length === 0) return new Map();
  const rows = await s.tx.select({ id: docs.id, title: docs.title }).from(docs).where(inArray(docs.title, titles)).orderBy(asc(docs.id));
  const byTitle = groupBy(rows, (r) => r.title);
  const ambiguous = [...byTitle].filter(([, list]) => list.length > 1).map(([t]) => t);
  if (ambiguous.length > 0)
    throw ApiError.conflict(
      `More than one document is titled ${ambiguous
        .slice(0, 5)
        .map((t) => JSON.stringify(t))
        .join(", ")}: rename them before importing.`,
    );
  return new Map(rows.map((r) => [r.title, r.id]));
}

export const importDocs = defineVerb(
  {
    scope: "write:docs",
    prepare: async (_ctx, input: { docs: ImportDoc[] }) =>
      refuseRepeats(
        input.docs,
        (d) => d.title,
        (i) => ["docs", i, "title"],
        "titles identify documents on import",
      ),
  },
  async (s, input) => {
    const existing = await existingByTitle(
      s,
      input.docs.map((d) => d.title),
    );
    const known = await entityNames(
      s.tx,
      input.docs.flatMap((d) => d.attachments ?? []),
    );
    let created = 0;
    let updated = 0;
    let skipped = 0;
    for (const d of input.docs) {
      const values = { title: d.title, body_md: d.body_md, category: d.category ?? null, pinned: d.pinned };
      const id = existing.get(d.title);
      let docId: number;
      if (id === undefined) {
        const [row] = await s.tx
          .insert(docs)
          .values({ ...values, created_by: s.ctx.actor?.userId ?? null })
          .returning();
        docId = row!.id;
        created++;
        s.audit({
          action: "doc.create",
          category: "inventory",
          entity_type: "doc",
          entity_id: docId,
          diff: { after: values, source: "import" },
        });
      } else {
        const [before] = await s.tx.select().from(docs).where(eq(docs.id, id)).for("update");
        await s.tx
          .update(docs)
          .set({ ...values, version: sql`${docs.version} + 1`, updated_at: s.now })
          .where(eq(docs.id, id));
        docId = id;
        updated++;
        const changed = (Object.keys(values) as (keyof typeof values)[]).filter((k) => before![k] !== values[k]);
        s.audit({
          action: "doc.update",
          category: "inventory",
          entity_type: "doc",
          entity_id: docId,
          diff: {
            before: Object.fromEntries(changed.map((k) => [k, before![k]])),
            after: Object.fromEntries(changed.map((k) => [k, values[k]])),
            source: "import",
          },
        });
      }
      if (d.attachments === undefined) continue;
      const links = [...new Map(d.attachments.map((a) => [refKey(a.entity_type, a.entity_id), a])).values()];
      const present = links.filter((a) => known.has(refKey(a.entity_type, a.entity_id)));
      skipped += links.length - present.length;
      await s.tx.delete(docEntities).where(eq(docEntities.doc_id, docId));
      if (present.length > 0) await s.tx.insert(docEntities).values(present.map((a) => ({ doc_id: docId, ...a })));
    }
    if (created + updated > 0) s.emit("inventory", { entity: "doc", action: "import", created, updated });
    return { created, updated, attachments_skipped: skipped };
  },
);
