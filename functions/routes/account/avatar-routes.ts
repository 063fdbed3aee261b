// The caller's avatar: PUT /auth/me/avatar, and the static GET /user-icons/<file> that serves avatars.
import type { Hono } from "hono";
import { PublicUser } from "../../../shared/schemas/auth.ts";
import { AVATAR_MAX_BYTES } from "../../../shared/verbs/account/avatar-store.ts";
import { readAvatar } from "../../../shared/verbs/account/read-avatar.ts";
import { setMyAvatar } from "../../../shared/verbs/account/set-avatar.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { fileField } from "../content/multipart.ts";

export function avatarRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "put",
      path: "/api/v1/auth/me/avatar",
      tag: "auth",
      summary: "Upload your avatar: multipart/form-data with the image in the field `file`",
      description: `PNG, JPEG, GIF or WebP, told by the file's content (SVG is refused), at most ${AVATAR_MAX_BYTES} bytes (512 KiB). Served at the answer's avatar_url.`,
      upload: { file: "file", description: "The image: PNG, JPEG, GIF or WebP (by content), at most 512 KiB." },
      response: { schema: PublicUser },
      errors: [413, 422],
    },
    async (c, { reply }) => {
      const bytes = await fileField(c, "the image");
      return reply(await setMyAvatar({ ctx: verbContext(c), input: { bytes } }));
    },
  );

  // Static (spec 4.6: outside /api and outside the OpenAPI document). Names are unique per upload, so
  // a served file never changes and may be cached for good.
  app.get("/user-icons/:name", async (c) => {
    const { bytes, contentType } = await readAvatar({ db: c.get("db"), name: c.req.param("name") });
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": contentType,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
  });
}
