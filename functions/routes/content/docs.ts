// [docs] /docs (list, create), /docs/{doc_id} (get, patch, delete), attachments to inventory objects,
// JSON export/import and image uploads. Every read carries body_html (sanitised Markdown).
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  Attachment,
  AttachmentView,
  ByEntityQuery,
  Doc,
  DocCreate,
  DocEntities,
  DocList,
  DocListQuery,
  DocPatch,
  DocsExport,
  ImportReport,
  UploadedImage,
} from "../../../shared/schemas/docs.ts";
import { attachDoc, detachDoc, docsByEntity, entitiesOfDoc } from "../../../shared/verbs/docs/attachments.ts";
import { docsVerbs } from "../../../shared/verbs/docs/def.ts";
import { exportDocs, importDocs } from "../../../shared/verbs/docs/transfer.ts";
import { DOC_IMAGE_MAX_BYTES, uploadDocImage } from "../../../shared/verbs/docs/upload-image.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "../inventory/resource-routes.ts";
import { fileField, MULTIPART_DESCRIPTION } from "./multipart.ts";

const tag = "docs" as const;

export function docsRoutes(app: Hono<AppEnv>): void {
  // The fixed paths first: /docs/:doc_id would otherwise take "attach", "export" and the rest as ids.
  route(
    app,
    {
      method: "post",
      path: "/api/v1/docs/attach",
      tag,
      scope: attachDoc.scope,
      body: Attachment,
      errors: [409],
      summary: "Attach a document to an inventory object (the object must exist: 422 otherwise)",
      response: { status: 201, schema: AttachmentView },
    },
    async (c, { body, reply }) => reply(await attachDoc({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/docs/attach",
      tag,
      scope: detachDoc.scope,
      body: Attachment,
      summary: "Detach a document from an inventory object (JSON body like the attach)",
      response: { status: 204, description: "Detached" },
    },
    async (c, { body }) => {
      await detachDoc({ ctx: verbContext(c), input: body });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/docs/by-entity",
      tag,
      scope: docsByEntity.scope,
      query: ByEntityQuery,
      summary: "Documents attached to one inventory object",
      response: { schema: DocList },
    },
    async (c, { query, reply }) => reply(await docsByEntity({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/docs/export",
      tag,
      scope: exportDocs.scope,
      summary: "Every document with its attachments as one JSON file (what POST /docs/import reads)",
      response: { schema: DocsExport },
    },
    async (c, { reply }) => reply(await exportDocs({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/docs/import",
      tag,
      scope: importDocs.scope,
      body: DocsExport,
      errors: [409],
      summary: "Import the JSON of GET /docs/export: documents matched by title are updated, the rest created, in one transaction",
      description:
        "A document's `attachments`, when given, replace its attachments; objects this inventory does not have are skipped and counted in attachments_skipped. Two documents with the same title in the file are a 422; a title held by two existing documents is a 409.",
      response: { schema: ImportReport },
    },
    async (c, { body, reply }) => reply(await importDocs({ ctx: verbContext(c), input: body })),
  );

  resourceRoutes(app, {
    verbs: docsVerbs,
    tag,
    basePath: "/api/v1/docs",
    idParam: "doc_id",
    noun: ["document", "documents"],
    item: Doc,
    create: DocCreate,
    patch: DocPatch,
    query: DocListQuery,
  });
  const params = IdParam("doc_id");

  route(
    app,
    {
      method: "get",
      path: "/api/v1/docs/:doc_id/entities",
      tag,
      scope: entitiesOfDoc.scope,
      params,
      summary: "The inventory objects a document is attached to, with their names (null once an object is deleted)",
      response: { schema: DocEntities },
    },
    async (c, { params: p, reply }) => reply(await entitiesOfDoc({ ctx: verbContext(c), input: { docId: p.doc_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/docs/:doc_id/upload-image",
      tag,
      scope: uploadDocImage.scope,
      params,
      errors: [413],
      summary: "Upload an image for a document; answers its URL and the Markdown that shows it",
      description: `${MULTIPART_DESCRIPTION} PNG, JPEG, GIF or WebP, at most ${DOC_IMAGE_MAX_BYTES} bytes (2 MiB; the server-wide MAX_BODY_BYTES also applies).`,
      response: { status: 201, schema: UploadedImage },
    },
    async (c, { params: p, reply }) =>
      reply(await uploadDocImage({ ctx: verbContext(c), input: { docId: p.doc_id, bytes: await fileField(c) } })),
  );
}
