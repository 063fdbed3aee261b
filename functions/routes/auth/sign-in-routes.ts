// Signing in and out: /auth/login, /auth/jwt/login, /auth/logout, /auth/jwt/logout, and the other ways
// in: /auth/force-change-password, /auth/register, /auth/demo. (MFA's second step: mfa-routes.ts; the
// caller's own account: ../account/.)
import type { Hono } from "hono";
import {
  Credentials,
  Detail,
  ForceChangePasswordBody,
  JwtLoginBody,
  JwtLoginResponse,
  LoginResponse,
  RegisterBody,
  SessionResponse,
} from "../../../shared/schemas/auth.ts";
import { demoSignIn } from "../../../shared/verbs/auth/demo.ts";
import { forceChangePassword } from "../../../shared/verbs/auth/force-change-password.ts";
import { login } from "../../../shared/verbs/auth/login.ts";
import { logout } from "../../../shared/verbs/auth/logout.ts";
import { register } from "../../../shared/verbs/auth/register.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { clearSessionCookies } from "../../session-cookies.ts";
import { challengeAnswer, loginAnswer, sessionAnswer } from "./respond.ts";
import { signInArgs } from "./sign-in-args.ts";

export function signInRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/login",
      tag: "auth",
      auth: "public",
      summary: "Sign in: sets svc_session and svc_csrf, or asks for MFA or a password change",
      body: Credentials,
      response: { schema: LoginResponse },
      errors: [401, 423],
    },
    async (c, { body, reply }) => reply(loginAnswer(c, await login(await signInArgs(c, body)))),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/jwt/login",
      tag: "auth",
      auth: "public",
      summary: "Sign in for a bearer token (JSON {email, password} or form username/password)",
      body: JwtLoginBody,
      acceptsForm: true,
      response: { schema: JwtLoginResponse },
      errors: [401, 423],
    },
    async (c, { body, reply }) => {
      const outcome = await login(await signInArgs(c, body));
      if (outcome.kind !== "session") return reply(challengeAnswer(outcome));
      return reply({ access_token: outcome.session.token, token_type: "bearer" });
    },
  );

  for (const path of ["/api/v1/auth/logout", "/api/v1/auth/jwt/logout"]) {
    route(
      app,
      {
        method: "post",
        path,
        tag: "auth",
        auth: "public",
        summary: "Sign out: revokes this session at once and clears the cookies",
        response: { schema: Detail },
      },
      async (c, { reply }) => {
        await logout({ ctx: verbContext(c) });
        clearSessionCookies(c);
        return reply({ detail: "Signed out." });
      },
    );
  }

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/force-change-password",
      tag: "auth",
      auth: "public",
      summary: "Set a new password with the change_token from /auth/login, then sign in",
      description: "Other sessions of the user are revoked. The token works once: the password-change flag it answers to is cleared.",
      body: ForceChangePasswordBody,
      response: { schema: SessionResponse },
    },
    async (c, { body, reply }) => reply(sessionAnswer(c, await forceChangePassword(await signInArgs(c, body)))),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/register",
      tag: "auth",
      auth: "public",
      summary: "Create an account and sign in (only while the allow_registration setting is on)",
      description: "The new account gets the registration_default_role setting's role, never an administrative one (then viewer).",
      body: RegisterBody,
      response: { schema: SessionResponse },
      errors: [403, 409],
    },
    async (c, { body, reply }) => reply(sessionAnswer(c, await register(await signInArgs(c, body)))),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/demo",
      tag: "auth",
      auth: "public",
      summary: "Sign in as the read-only demo user (only while the demo_enabled setting is on)",
      response: { schema: SessionResponse },
      errors: [403],
    },
    async (c, { reply }) => reply(sessionAnswer(c, await demoSignIn(await signInArgs(c, {})))),
  );
}
