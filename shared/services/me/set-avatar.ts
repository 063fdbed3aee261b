// PUT /auth/me/avatar: an image, checked by its bytes, stored under a new name in the same transaction
// that points the user row at it and removes the previous image.
import { eq } from "drizzle-orm";
import { bytesToHex } from "../../auth/encoding.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import type { VerbContext } from "../verb-context.ts";
import { storeUpload } from "../uploads/store-upload.ts";
import { runInTransaction } from "../verb.ts";
import { AVATAR_KIND, AVATAR_MAX_BYTES, removeAvatar } from "./avatar-store.ts";
import { sniffImageType } from "./image-type.ts";
import { requireSelfWrite } from "./self.ts";

export async function setMyAvatar({ ctx, input }: { ctx: VerbContext; input: { bytes: Uint8Array } }): Promise<PublicUser> {
  const me = requireSelfWrite(ctx);
  if (input.bytes.length > AVATAR_MAX_BYTES)
    throw new ApiError("PAYLOAD_TOO_LARGE", `The image is larger than the limit of ${AVATAR_MAX_BYTES} bytes (512 KiB).`);
  const type = sniffImageType(input.bytes);
  if (!type)
    throw ApiError.validation([{ loc: ["body", "file"], msg: "The file is not a PNG, JPEG, GIF or WebP image (SVG is not accepted).", type: "image_type" }]);
  const name = `${me.userId}-${bytesToHex(ctx.random.bytes(16))}.${type.ext}`;
  return runInTransaction(ctx, {}, async (s) => {
    const previous = (await lockUser(s.tx, me.userId)).avatar_path;
    await storeUpload(s, { kind: AVATAR_KIND, name, contentType: type.contentType, bytes: input.bytes });
    const [fresh] = await s.tx.update(users).set({ avatar_path: name, updated_at: s.now }).where(eq(users.id, me.userId)).returning();
    await removeAvatar(s.tx, previous);
    s.audit({
      action: "user.avatar_changed", category: "users", entity_type: "user", entity_id: me.userId,
      diff: { before: { avatar_path: previous }, after: { avatar_path: name, content_type: type.contentType, bytes: input.bytes.length } },
    });
    return publicUser(fresh!, await roleScopes(s.tx, fresh!.role));
  });
}
