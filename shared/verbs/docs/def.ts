// Documentation entries as an inventory-style resource (lists, If-Match on version, audit diff). Every
// read carries body_html, rendered from body_md and sanitised (render-markdown.ts).
import { eq } from "drizzle-orm";
import type * as v from "valibot";
import { docs } from "../../db/schema/index.ts";
import type { DocListQuery } from "../../schemas/docs.ts";
import { eqFilter } from "../resources/filters.ts";
import { iso } from "../resources/present.ts";
import { defineResource } from "../resources/resource-def.ts";
import { resourceVerbs } from "../resources/resource-verbs.ts";
import { renderMarkdown } from "./render-markdown.ts";

type Row = typeof docs.$inferSelect;

export const docsVerbs = resourceVerbs(
  defineResource({
    label: "Document",
    entityType: "doc",
    // Editors hold write:docs (spec 5.2); deletes need delete:docs (administrators).
    scopeResource: "docs",
    table: docs,
    columns: { id: docs.id, version: docs.version },
    list: {
      sortable: { title: docs.title, category: docs.category, created_at: docs.created_at, updated_at: docs.updated_at },
      search: [docs.title, docs.body_md, docs.category],
    },
    filters: (q: v.InferOutput<typeof DocListQuery>) => [
      eqFilter(docs.category, q.category),
      q.pinned === undefined ? undefined : eq(docs.pinned, q.pinned === "true"),
    ],
    async toValues(s, input, existing) {
      return existing ? input : { ...input, created_by: s.ctx.actor?.userId ?? null };
    },
    async present(_db, rows) {
      return rows.map(presentDoc);
    },
  }),
);

export function presentDoc(r: Row) {
  return {
    id: r.id,
    title: r.title,
    body_md: r.body_md,
    body_html: renderMarkdown(r.body_md),
    category: r.category,
    pinned: r.pinned,
    created_by: r.created_by,
    version: r.version,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
