// PUT /auth/me/avatar: an image, checked by its bytes, stored under a new name in the same transaction
// that points the user row at it and removes the previous image.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import { type ImageType, sniffImageType } from "../uploads/image-type.ts";
import { freshName, storeUpload } from "../uploads/store-upload.ts";
import { defineVerb } from "../verb.ts";
import { AVATAR_KIND, AVATAR_MAX_BYTES, removeAvatar } from "./avatar-store.ts";
import { requireSelfWrite } from "./self.ts";

export const setMyAvatar = defineVerb<{ bytes: Uint8Array }, PublicUser, ImageType>(
  {
    scope: requireSelfWrite,
    prepare: async (_ctx, input) => {
      if (input.bytes.length > AVATAR_MAX_BYTES)
        throw new ApiError("PAYLOAD_TOO_LARGE", `The image is larger than the limit of ${AVATAR_MAX_BYTES} bytes (512 KiB).`);
      const type = sniffImageType(input.bytes);
      if (!type)
        throw ApiError.validation([
          { loc: ["body", "file"], msg: "The file is not a PNG, JPEG, GIF or WebP image (SVG is not accepted).", type: "image_type" },
        ]);
      return type;
    },
  },
  async (s, input, type) => {
    const me = requireSelfWrite(s.ctx);
    const name = freshName(s, String(me.userId), type.ext);
    const previous = (await lockUser(s.tx, me.userId)).avatar_path;
    await storeUpload(s, { kind: AVATAR_KIND, name, contentType: type.contentType, bytes: input.bytes });
    const [fresh] = await s.tx.update(users).set({ avatar_path: name, updated_at: s.now }).where(eq(users.id, me.userId)).returning();
    await removeAvatar(s.tx, previous);
    s.audit({
      action: "user.avatar_changed",
      category: "users",
      entity_type: "user",
      entity_id: me.userId,
      diff: { before: { avatar_path: previous }, after: { avatar_path: name, content_type: type.contentType, bytes: input.bytes.length } },
    });
    return publicUser(fresh!, await roleScopes(s.tx, fresh!.role));
  },
);
