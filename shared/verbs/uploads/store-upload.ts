// Writes one uploaded file into the `uploads` table (bytes in the database, so every instance, the edge
// included, serves it). Runs inside the calling verb's transaction and records its audit entry there.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "../../auth/encoding.ts";
import { uploads } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { VerbScope } from "../verb.ts";

export interface StoredUpload {
  id: number;
  kind: string;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  url: string;
}

/** Where the static mount (functions/routes/static-uploads.ts) serves an upload. */
export function uploadUrl(kind: string, name: string): string {
  return `/uploads/${kind}/${name}`;
}

/** 413 in the envelope when `bytes` is over `max` (`what` names the limit for the message). */
export function checkSize(bytes: Uint8Array, max: number, what: string): void {
  if (bytes.length > max)
    throw new ApiError("PAYLOAD_TOO_LARGE", `The ${what} is ${bytes.length} bytes, over the limit of ${max} bytes (${max / 1024} KiB).`);
}

/** A fresh, unguessable file name: `<prefix>-<32 hex>.<ext>`. */
export function freshName(s: VerbScope, prefix: string, ext: string): string {
  return `${prefix}-${bytesToHex(s.ctx.random.bytes(16))}.${ext}`;
}

export interface UploadFileInput {
  kind: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The `uploads` row of a file: its size and SHA-256 taken from the bytes themselves. */
export function uploadRow(file: UploadFileInput, createdBy: number | null) {
  return {
    kind: file.kind,
    name: file.name,
    content_type: file.contentType,
    size: file.bytes.length,
    sha256: bytesToHex(sha256(file.bytes)),
    bytes: file.bytes,
    created_by: createdBy,
  };
}

/**
 * Inserts the file, or with `replace` overwrites the one of the same kind and name (a fixed name like
 * the favicon). Audited without the bytes.
 */
export async function storeUpload(s: VerbScope, file: UploadFileInput & { replace?: boolean }): Promise<StoredUpload> {
  const values = uploadRow(file, s.ctx.actor?.userId ?? null);
  const insert = s.tx.insert(uploads).values(values);
  const returning = {
    id: uploads.id,
    kind: uploads.kind,
    name: uploads.name,
    content_type: uploads.content_type,
    size: uploads.size,
    sha256: uploads.sha256,
  };
  const [row] = await (file.replace
    ? insert.onConflictDoUpdate({ target: [uploads.kind, uploads.name], set: { ...values, updated_at: s.now } }).returning(returning)
    : insert.returning(returning));
  const stored = { ...row!, url: uploadUrl(row!.kind, row!.name) };
  const { url: _url, ...meta } = stored;
  s.audit({ action: "upload.store", category: "uploads", entity_type: "upload", entity_id: stored.id, diff: { after: meta } });
  return stored;
}
