// Self-service sign-in and account routes: /auth/force-change-password, /auth/register, /auth/demo,
// DELETE /auth/me, PUT /auth/me/avatar, and the static GET /user-icons/<file> that serves avatars.
import type { Context, Hono } from "hono";
import * as v from "valibot";
import { AVATAR_MAX_BYTES } from "../../../shared/services/me/avatar-store.ts";
import { deleteMyAccount } from "../../../shared/services/me/delete-account.ts";
import { demoSignIn } from "../../../shared/services/me/demo.ts";
import { forceChangePassword } from "../../../shared/services/me/force-change-password.ts";
import { readAvatar } from "../../../shared/services/me/read-avatar.ts";
import { register } from "../../../shared/services/me/register.ts";
import { setMyAvatar } from "../../../shared/services/me/set-avatar.ts";
import { DisplayName } from "../../../shared/services/admin-users/input-schemas.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { clearSessionCookies } from "../../session-cookies.ts";
import { fileField } from "../content/multipart.ts";
import { respondLogin } from "./respond.ts";
import { Email, Password, PublicUser, SessionResponse } from "./schemas.ts";

const Detail = v.object({ detail: v.string() });

/** What every sign-in verb needs from the request besides its body. */
async function signIn(c: Context<AppEnv>) {
  const ctx = verbContext(c);
  return { ctx, signingKey: await c.get("deps").identity.signingKey(ctx.db), userAgent: c.req.header("user-agent") ?? null };
}

export function selfRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post", path: "/api/v1/auth/force-change-password", tag: "auth", auth: "public",
      summary: "Set a new password with the change_token from /auth/login, then sign in",
      description: "Other sessions of the user are revoked. The token works once: the password-change flag it answers to is cleared.",
      body: v.object({ change_token: v.pipe(v.string(), v.minLength(1, "The change_token is required."), v.maxLength(4096)), new_password: Password }),
      response: { schema: SessionResponse },
    },
    async (c, { body }) => respondLogin(c, await forceChangePassword({ ...(await signIn(c)), input: body })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/register", tag: "auth", auth: "public",
      summary: "Create an account and sign in (only while the allow_registration setting is on)",
      description: "The new account gets the registration_default_role setting's role, never an administrative one (then viewer).",
      body: v.object({ email: Email, password: Password, display_name: v.optional(DisplayName) }),
      response: { schema: SessionResponse }, errors: [403, 409],
    },
    async (c, { body }) => respondLogin(c, await register({ ...(await signIn(c)), input: body })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/demo", tag: "auth", auth: "public",
      summary: "Sign in as the read-only demo user (only while the demo_enabled setting is on)",
      response: { schema: SessionResponse }, errors: [403],
    },
    async (c) => respondLogin(c, await demoSignIn(await signIn(c))),
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/auth/me", tag: "auth",
      summary: "Delete your own account (confirm with the current password); the last active administrator cannot",
      body: v.object({ password: Password }), response: { schema: Detail }, errors: [409],
    },
    async (c, { body }) => {
      const result = await deleteMyAccount({ ctx: verbContext(c), input: body });
      clearSessionCookies(c);
      return c.json(result);
    },
  );

  route(
    app,
    {
      method: "put", path: "/api/v1/auth/me/avatar", tag: "auth",
      summary: "Upload your avatar: multipart/form-data with the image in the field `file`",
      description: `PNG, JPEG, GIF or WebP, told by the file's content (SVG is refused), at most ${AVATAR_MAX_BYTES} bytes (512 KiB). Served at the answer's avatar_url.`,
      upload: { file: "file", description: "The image: PNG, JPEG, GIF or WebP (by content), at most 512 KiB." },
      response: { schema: PublicUser }, errors: [413, 422],
    },
    async (c) => {
      const bytes = await fileField(c, "the image");
      return c.json(await setMyAvatar({ ctx: verbContext(c), input: { bytes } }));
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
