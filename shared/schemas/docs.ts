// Documentation entries: Markdown bodies rendered to sanitised HTML on every read, attachable to
// inventory objects; export/import as JSON.
import * as v from "valibot";
import { ENTITY_TYPES } from "../verbs/docs/entity-refs.ts";
import { listQuery, TextFilter } from "./list-query.ts";
import { OptionalText, patchBody, Ref, writeBody } from "./fields.ts";

export const DOC_BODY_MAX = 200_000;

const Title = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(300));
const writable = {
  title: Title,
  body_md: v.optional(v.pipe(v.string(), v.maxLength(DOC_BODY_MAX)), ""),
  category: OptionalText(100),
  pinned: v.optional(v.boolean()),
};
const readOnly = ["body_html", "created_by"];

export const DocCreate = writeBody(writable, readOnly);
export const DocPatch = patchBody({ ...writable, body_md: v.optional(v.pipe(v.string(), v.maxLength(DOC_BODY_MAX))) }, readOnly);

export const Doc = v.object({
  id: v.number(),
  title: v.string(),
  body_md: v.string(),
  body_html: v.string(),
  category: v.nullable(v.string()),
  pinned: v.boolean(),
  created_by: v.nullable(v.number()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});
/** GET /docs/by-entity: the documents attached to one object. */
export const DocList = v.array(Doc);

export const DocListQuery = listQuery(["title", "category", "created_at", "updated_at"], {
  category: TextFilter,
  pinned: v.optional(v.picklist(["true", "false"], "Must be true or false.")),
});

export const EntityTypeSchema = v.picklist(ENTITY_TYPES, `Must be one of: ${ENTITY_TYPES.join(", ")}.`);

export const Attachment = v.object({ doc_id: Ref, entity_type: EntityTypeSchema, entity_id: Ref });
export const AttachmentView = v.object({
  doc_id: v.number(),
  entity_type: v.string(),
  entity_id: v.number(),
  entity_name: v.nullable(v.string()),
});

export const ByEntityQuery = v.object({
  entity_type: EntityTypeSchema,
  entity_id: v.pipe(v.string(), v.regex(/^\d{1,10}$/, "Must be a positive integer id."), v.transform(Number)),
});
export const DocEntity = v.object({ entity_type: v.string(), entity_id: v.number(), name: v.nullable(v.string()) });
export const DocEntities = v.array(DocEntity);

/** One document as exported and imported (ids are left out: import matches documents by title). */
export const DocExportItem = v.object({
  title: Title,
  body_md: v.optional(v.pipe(v.string(), v.maxLength(DOC_BODY_MAX)), ""),
  category: OptionalText(100),
  pinned: v.optional(v.boolean(), false),
  created_at: v.optional(v.nullable(v.string())),
  updated_at: v.optional(v.nullable(v.string())),
  attachments: v.optional(v.pipe(v.array(v.object({ entity_type: EntityTypeSchema, entity_id: Ref })), v.maxLength(500))),
});
export const DocsExport = v.object({
  format: v.optional(v.literal("docs-export/v1")),
  exported_at: v.optional(v.nullable(v.string())),
  docs: v.pipe(v.array(DocExportItem), v.maxLength(1000, "At most 1000 documents per import.")),
});
export const ImportReport = v.object({ created: v.number(), updated: v.number(), attachments_skipped: v.number() });

export const UploadedImage = v.object({ url: v.string(), markdown: v.string() });
