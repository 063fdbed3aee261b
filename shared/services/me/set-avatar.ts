// PUT /auth/me/avatar: an image, checked by its bytes, saved under a new name; the user row then points
// at it. The file is written before the row (a stray file is harmless, a row without its file is not).
import { eq } from "drizzle-orm";
import { bytesToHex } from "../../auth/encoding.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import type { ServiceContext } from "../context.ts";
import { runInTransaction } from "../verb.ts";
import { AVATAR_MAX_BYTES, type AvatarStore } from "./avatar-store.ts";
import { sniffImageType } from "./image-type.ts";
import { requireSelfWrite } from "./self.ts";

export const NO_AVATAR_STORE =
  "Avatar storage is not available on this deployment (edge workers have no file store); use a Node instance of the service.";

export async function setMyAvatar({
  ctx,
  input,
  avatarStore,
}: {
  ctx: ServiceContext;
  input: { bytes: Uint8Array };
  avatarStore?: AvatarStore | undefined;
}): Promise<PublicUser> {
  const me = requireSelfWrite(ctx);
  if (!avatarStore) throw new ApiError(503, "SERVICE_NOT_READY", NO_AVATAR_STORE);
  if (input.bytes.length > AVATAR_MAX_BYTES)
    throw new ApiError(413, "PAYLOAD_TOO_LARGE", `The image is larger than the limit of ${AVATAR_MAX_BYTES} bytes (512 KiB).`);
  const type = sniffImageType(input.bytes);
  if (!type)
    throw ApiError.validation([{ loc: ["body", "file"], msg: "The file is not a PNG, JPEG, GIF or WebP image (SVG is not accepted).", type: "image_type" }]);
  const name = `${me.userId}-${bytesToHex(ctx.random.bytes(16))}.${type.ext}`;
  await avatarStore.save(name, input.bytes);
  let previous: string | null = null;
  try {
    const user = await runInTransaction(ctx, {}, async (s) => {
      previous = (await lockUser(s.tx, me.userId)).avatar_path;
      const [fresh] = await s.tx.update(users).set({ avatar_path: name, updated_at: s.now }).where(eq(users.id, me.userId)).returning();
      s.audit({
        action: "user.avatar_changed", category: "users", entity_type: "user", entity_id: me.userId,
        diff: { before: { avatar_path: previous }, after: { avatar_path: name, content_type: type.contentType, bytes: input.bytes.length } },
      });
      return publicUser(fresh!, await roleScopes(s.tx, fresh!.role));
    });
    if (previous) await avatarStore.remove(previous).catch(() => {});
    return user;
  } catch (e) {
    await avatarStore.remove(name).catch(() => {});
    throw e;
  }
}
