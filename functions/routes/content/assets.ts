// [assets] Uploads of a custom node icon and of the deployment's favicon (multipart, field `file`).
import type { Hono } from "hono";
import { StoredAsset } from "../../../shared/schemas/assets.ts";
import { FAVICON_MAX_BYTES, uploadFavicon, uploadUserIcon, USER_ICON_MAX_BYTES } from "../../../shared/verbs/uploads/assets.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { fileField, MULTIPART_DESCRIPTION } from "./multipart.ts";

const tag = "assets" as const;

export function assetRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/assets/user-icon",
      tag,
      scope: uploadUserIcon.scope,
      errors: [413, 422],
      summary: "Upload a custom icon for graph nodes; answers the URL it is served at",
      description: `${MULTIPART_DESCRIPTION} PNG, JPEG, GIF or WebP, at most ${USER_ICON_MAX_BYTES} bytes (512 KiB). Served from /uploads/user-icon/<name> (GET /user-icons/* serves avatars).`,
      response: { status: 201, schema: StoredAsset },
    },
    async (c, { reply }) => reply(await uploadUserIcon({ ctx: verbContext(c), input: { bytes: await fileField(c) } })),
  );
  route(
    app,
    {
      method: "post",
      path: "/api/v1/assets/branding/favicon",
      tag,
      scope: uploadFavicon.scope,
      errors: [413, 422],
      upload: { file: "file", description: "The favicon: PNG or ICO." },
      summary: "Upload the favicon (administrators); GET /favicon.ico serves it from then on",
      description: `${MULTIPART_DESCRIPTION} PNG or ICO, at most ${FAVICON_MAX_BYTES} bytes (256 KiB); replaces the previous favicon.`,
      response: { schema: StoredAsset },
    },
    async (c, { reply }) => reply(await uploadFavicon({ ctx: verbContext(c), input: { bytes: await fileField(c) } })),
  );
}
