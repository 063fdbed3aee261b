// Signing in and out: /auth/login, /auth/jwt/login, /auth/logout, /auth/jwt/logout, and the other ways
// in: /auth/force-change-password, /auth/register, /auth/demo. (MFA's second step: mfa-routes.ts; the
// caller's own account: ../account/.)
import type { Hono } from "hono";
import * as v from "valibot";
import { demoSignIn } from "../../../shared/verbs/auth/demo.ts";
import { forceChangePassword } from "../../../shared/verbs/auth/force-change-password.ts";
import { login } from "../../../shared/verbs/auth/login.ts";
import { logout } from "../../../shared/verbs/auth/logout.ts";
import { register } from "../../../shared/verbs/auth/register.ts";
import { DisplayName } from "../../../shared/verbs/admin-users/input-schemas.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { clearSessionCookies } from "../../session-cookies.ts";
import { respondLogin } from "./respond.ts";
import { Email, LoginResponse, Password, SessionResponse } from "./schemas.ts";
import { signInArgs } from "./sign-in-args.ts";

const Credentials = v.object({ email: Email, password: Password });

export function signInRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post", path: "/api/v1/auth/login", tag: "auth", auth: "public",
      summary: "Sign in: sets svc_session and svc_csrf, or asks for MFA or a password change",
      body: Credentials, response: { schema: LoginResponse }, errors: [401, 423],
    },
    async (c, { body }) => respondLogin(c, await login(await signInArgs(c, body))),
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
      const outcome = await login(await signInArgs(c, body));
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
    {
      method: "post", path: "/api/v1/auth/force-change-password", tag: "auth", auth: "public",
      summary: "Set a new password with the change_token from /auth/login, then sign in",
      description: "Other sessions of the user are revoked. The token works once: the password-change flag it answers to is cleared.",
      body: v.object({ change_token: v.pipe(v.string(), v.minLength(1, "The change_token is required."), v.maxLength(4096)), new_password: Password }),
      response: { schema: SessionResponse },
    },
    async (c, { body }) => respondLogin(c, await forceChangePassword(await signInArgs(c, body))),
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
    async (c, { body }) => respondLogin(c, await register(await signInArgs(c, body))),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/demo", tag: "auth", auth: "public",
      summary: "Sign in as the read-only demo user (only while the demo_enabled setting is on)",
      response: { schema: SessionResponse }, errors: [403],
    },
    async (c) => respondLogin(c, await demoSignIn(await signInArgs(c, {}))),
  );
}
