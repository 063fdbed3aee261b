// The static mounts' read: one stored file by kind and name. Public (spec 4.6 serves uploads outside the
// API); names are unguessable and looked up as values, never as paths.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { uploads } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";

const KIND = /^[a-z][a-z0-9-]{0,39}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export interface UploadFile {
  bytes: Uint8Array;
  content_type: string;
  sha256: string;
}

export async function readUpload({ db, kind, name }: { db: Db; kind: string; name: string }): Promise<UploadFile> {
  const label = `Upload ${kind}/${name}`;
  if (!KIND.test(kind) || !NAME.test(name)) throw new ApiError("RESOURCE_NOT_FOUND", `${label.slice(0, 120)} was not found.`);
  const [row] = await db
    .select({ bytes: uploads.bytes, content_type: uploads.content_type, sha256: uploads.sha256 })
    .from(uploads)
    .where(and(eq(uploads.kind, kind), eq(uploads.name, name)));
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", `${label} was not found.`);
  return { ...row, bytes: new Uint8Array(row.bytes) };
}
