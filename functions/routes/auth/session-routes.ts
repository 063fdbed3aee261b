// Sign-in and sign-out: /auth/login, /auth/logout, /auth/jwt/login, /auth/jwt/logout, GET /auth/me.
import type { Hono } from "hono";
import * as v from "valibot";
import { login } from "../../../shared/services/auth/login.ts";
import { logout } from "../../../shared/services/auth/logout.ts";
import { getMe } from "../../../shared/services/users/get-me.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { clearSessionCookies } from "../../session-cookies.ts";
import { respondLogin } from "./respond.ts";
import { Email, LoginResponse, Password, PublicUser } from "./schemas.ts";

const Credentials = v.object({ email: Email, password: Password });
const Me = v.object({ ...PublicUser.entries, masquerade_by: v.nullable(v.number()) });

export function sessionRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post", path: "/api/v1/auth/login", tag: "auth", auth: "public",
      summary: "Sign in: sets svc_session and svc_csrf, or asks for MFA or a password change",
      body: Credentials, response: { schema: LoginResponse }, errors: [401, 423],
    },
    async (c, { body }) => {
      const deps = c.get("deps");
      const ctx = verbContext(c);
      const outcome = await login({ ctx, input: body, signingKey: await deps.identity.signingKey(ctx.db), userAgent: c.req.header("user-agent") ?? null });
      return respondLogin(c, outcome);
    },
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/jwt/login", tag: "auth", auth: "public",
      summary: "Sign in for a bearer token (JSON {email, password} or form username/password)",
      body: v.pipe(
        v.object({ email: v.optional(Email), username: v.optional(Email), password: Password }),
        v.check((b) => Boolean(b.email ?? b.username), "Send email (or username) and password."),
        v.transform((b) => ({ email: (b.email ?? b.username)!, password: b.password })),
      ),
      acceptsForm: true,
      response: {
        schema: v.union([
          v.object({ access_token: v.string(), token_type: v.literal("bearer") }),
          v.object({ requires_mfa: v.literal(true), mfa_token: v.string() }),
          v.object({ requires_change: v.literal(true), change_token: v.string() }),
        ]),
      },
      errors: [401, 423],
    },
    async (c, { body }) => {
      const deps = c.get("deps");
      const ctx = verbContext(c);
      const outcome = await login({ ctx, input: body, signingKey: await deps.identity.signingKey(ctx.db), userAgent: c.req.header("user-agent") ?? null });
      if (outcome.kind !== "session") return respondLogin(c, outcome);
      return c.json({ access_token: outcome.session.token, token_type: "bearer" as const });
    },
  );

  for (const path of ["/api/v1/auth/logout", "/api/v1/auth/jwt/logout"]) {
    route(
      app,
      {
        method: "post", path, tag: "auth", auth: "public",
        summary: "Sign out: revokes this session at once and clears the cookies",
        response: { schema: v.object({ detail: v.string() }) },
      },
      async (c) => {
        await logout({ ctx: verbContext(c) });
        clearSessionCookies(c);
        return c.json({ detail: "Signed out." });
      },
    );
  }

  route(
    app,
    { method: "get", path: "/api/v1/auth/me", tag: "auth", summary: "The signed-in user", response: { schema: Me } },
    async (c) => c.json(await getMe({ ctx: verbContext(c) })),
  );
}
