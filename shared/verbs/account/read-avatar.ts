// GET /user-icons/<name>: the stored bytes and the type they really are (sniffed again, never trusted
// from the name or the stored type alone).
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import { readUpload } from "../uploads/read-upload.ts";
import { AVATAR_KIND, isAvatarName } from "./avatar-store.ts";
import { sniffImageType } from "../uploads/image-type.ts";

export async function readAvatar({ db, name }: { db: Db; name: string }) {
  const notFound = ApiError.notFound("User icon", name.slice(0, 120));
  if (!isAvatarName(name)) throw notFound;
  const { bytes } = await readUpload({ db, kind: AVATAR_KIND, name }).catch((e: unknown) => {
    throw e instanceof ApiError && e.status === 404 ? notFound : e;
  });
  const type = sniffImageType(bytes);
  if (!type) throw notFound;
  return { bytes, contentType: type.contentType };
}
