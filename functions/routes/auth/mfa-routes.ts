// MFA (spec 5, TOTP per RFC 6238): /auth/mfa/setup, /activate, /verify, /disable, /backup-codes/regenerate.
// /verify is the public second step of a sign-in (CSRF-exempt, rate category mfa_verify); the others
// change the signed-in user's own MFA.
import type { Hono } from "hono";
import * as v from "valibot";
import { activateMfa } from "../../../shared/verbs/mfa/activate.ts";
import { disableMfa } from "../../../shared/verbs/mfa/disable.ts";
import { regenerateBackupCodes } from "../../../shared/verbs/mfa/regenerate-backup-codes.ts";
import { setupMfa } from "../../../shared/verbs/mfa/setup.ts";
import { verifyMfa } from "../../../shared/verbs/mfa/verify.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { respondLogin } from "./respond.ts";
import { Password, SessionResponse } from "./schemas.ts";
import { signInArgs } from "./sign-in-args.ts";

const Code = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "The code is required."),
  v.maxLength(64),
  v.description("A 6-digit code from the authenticator app, or one unused backup code (xxxx-xxxx-xxxx)."),
);
const BackupCodes = v.object({
  backup_codes: v.pipe(v.array(v.string()), v.description("Shown in this answer only: store them somewhere safe.")),
});

export function mfaRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post", path: "/api/v1/auth/mfa/setup", tag: "auth",
      summary: "Start MFA enrolment: a new TOTP secret (pending until activated) and its otpauth:// URI",
      response: { schema: v.object({ secret: v.string(), otpauth_uri: v.string() }) }, errors: [409],
    },
    async (c) => c.json(await setupMfa({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/mfa/activate", tag: "auth",
      summary: "Turn MFA on with a code for the pending secret; answers the backup codes once",
      body: v.object({ code: Code }), response: { schema: BackupCodes }, errors: [409],
    },
    async (c, { body }) => c.json(await activateMfa({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/mfa/verify", tag: "auth", auth: "public",
      summary: "Second sign-in step: the mfa_token from /auth/login plus a TOTP or backup code; answers like a login",
      body: v.object({ mfa_token: v.pipe(v.string(), v.minLength(1, "The mfa_token is required."), v.maxLength(4096)), code: Code }),
      response: { schema: SessionResponse },
    },
    async (c, { body }) => respondLogin(c, await verifyMfa(await signInArgs(c, body))),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/mfa/disable", tag: "auth",
      summary: "Turn MFA off (needs the current password and a valid code)",
      body: v.object({ password: Password, code: Code }), response: { schema: v.object({ detail: v.string() }) }, errors: [409],
    },
    async (c, { body }) => c.json(await disableMfa({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/mfa/backup-codes/regenerate", tag: "auth",
      summary: "A new set of backup codes (needs a valid code); every older backup code stops working",
      body: v.object({ code: Code }), response: { schema: BackupCodes }, errors: [409],
    },
    async (c, { body }) => c.json(await regenerateBackupCodes({ ctx: verbContext(c), input: body })),
  );
}
