// POST /docs/{doc_id}/upload-image: an image for a document's Markdown, checked by its bytes (PNG, JPEG,
// GIF, WebP; never SVG), stored as kind "doc-image" under a fresh name, answered with its URL and the
// Markdown that shows it.
import { eq } from "drizzle-orm";
import { docs } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { sniffImageType } from "../uploads/image-type.ts";
import { checkSize, freshName, storeUpload } from "../uploads/store-upload.ts";
import { defineVerb } from "../verb.ts";

export const DOC_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const uploadDocImage = defineVerb({ scope: "write:docs" }, async (s, { docId, bytes }: { docId: number; bytes: Uint8Array }) => {
  const [doc] = await s.tx.select({ id: docs.id }).from(docs).where(eq(docs.id, docId));
  if (!doc) throw ApiError.notFound("Document", docId);
  checkSize(bytes, DOC_IMAGE_MAX_BYTES, "image");
  const type = sniffImageType(bytes);
  if (!type)
    throw ApiError.validation([
      {
        loc: ["body", "file"],
        msg: "The file is not a PNG, JPEG, GIF or WebP image (told by its content; SVG is not accepted).",
        type: "image_type",
      },
    ]);
  const stored = await storeUpload(s, {
    kind: "doc-image",
    name: freshName(s, `doc${docId}`, type.ext),
    contentType: type.contentType,
    bytes,
  });
  return { url: stored.url, markdown: `![](${stored.url})` };
});
