// Release 0.1.0 kept avatars as files under DATA_DIR/user-icons; they now live in the `uploads` table
// (shared/verbs/account/avatar-store.ts). On start, any avatar a user row still points at that the table
// lacks is read from that folder and stored, so an upgrade loses no picture. The files are left in
// place (removing them is the operator's call); once imported they are never read again.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { uploads, users } from "../../shared/db/schema/index.ts";
import { AVATAR_KIND, AVATAR_MAX_BYTES, isAvatarName } from "../../shared/verbs/account/avatar-store.ts";
import { sniffImageType } from "../../shared/verbs/uploads/image-type.ts";
import { uploadRow } from "../../shared/verbs/uploads/store-upload.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";

export async function importFileAvatars({ deps, database }: Pick<NodeRuntime, "deps" | "database">): Promise<number> {
  const db = database.db;
  const missing = await db
    .select({ id: users.id, name: users.avatar_path })
    .from(users)
    .leftJoin(uploads, and(eq(uploads.kind, AVATAR_KIND), eq(uploads.name, users.avatar_path)))
    .where(and(isNotNull(users.avatar_path), isNull(uploads.id)));
  let imported = 0;
  for (const { id, name } of missing) {
    if (!name || !isAvatarName(name)) continue;
    const bytes = await readFile(join(deps.config.DATA_DIR, "user-icons", name)).then(
      (b) => new Uint8Array(b),
      () => undefined,
    );
    const type = bytes && bytes.length <= AVATAR_MAX_BYTES ? sniffImageType(bytes) : null;
    if (!bytes || !type) {
      deps.logger.warn("avatar file not found or not an image; the user keeps no avatar", { user_id: id, avatar: name });
      continue;
    }
    await db
      .insert(uploads)
      .values(uploadRow({ kind: AVATAR_KIND, name, contentType: type.contentType, bytes }, id))
      .onConflictDoNothing();
    imported++;
  }
  if (imported > 0) deps.logger.info("imported avatar files into the database", { imported });
  return imported;
}
