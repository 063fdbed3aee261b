// GET /user-icons/<name>: the stored bytes and the type they really are (sniffed again, never trusted
// from the name alone).
import { ApiError } from "../../errors.ts";
import { type AvatarStore, isAvatarName } from "./avatar-store.ts";
import { sniffImageType } from "./image-type.ts";
import { NO_AVATAR_STORE } from "./set-avatar.ts";

export async function readAvatar({ name, avatarStore }: { name: string; avatarStore?: AvatarStore | undefined }) {
  if (!avatarStore) throw new ApiError(503, "SERVICE_NOT_READY", NO_AVATAR_STORE);
  const bytes = isAvatarName(name) ? await avatarStore.read(name) : undefined;
  const type = bytes ? sniffImageType(bytes) : null;
  if (!bytes || !type) throw ApiError.notFound("User icon", name);
  return { bytes, contentType: type.contentType };
}
