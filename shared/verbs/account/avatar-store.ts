// Avatars are uploads of kind "avatar" (the `uploads` table): written in the same transaction as the
// user row that points at them, so there is never a row without its image nor an image left behind, and
// every instance serves them (split deployments and the edge alike).
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { uploads } from "../../db/schema/index.ts";

export const AVATAR_KIND = "avatar";

/** `<user id>-<32 hex>.<ext>`: a new name per upload, so a served file never changes and caches forever. */
const AVATAR_NAME = /^[1-9][0-9]{0,9}-[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

/** True only for names this service gives out: never a path, never a dot-segment. */
export function isAvatarName(name: string): boolean {
  return AVATAR_NAME.test(name);
}

export const AVATAR_MAX_BYTES = 512 * 1024;

/** Removes a user's avatar image, inside the transaction that changes or deletes the user row. */
export async function removeAvatar(tx: Db, name: string | null): Promise<void> {
  if (name) await tx.delete(uploads).where(and(eq(uploads.kind, AVATAR_KIND), eq(uploads.name, name)));
}
