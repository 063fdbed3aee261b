// MFA (spec 5, TOTP per RFC 6238): /auth/mfa/setup, /activate, /verify, /disable, /backup-codes/regenerate.
// /verify is the public second step of a sign-in (CSRF-exempt, rate category mfa_verify); the others
// change the signed-in user's own MFA.
import type { Hono } from "hono";
import {
  BackupCodes,
  Detail,
  MfaCodeBody,
  MfaDisableBody,
  MfaSetup,
  MfaVerifyBody,
  SessionResponse,
} from "../../../shared/schemas/auth.ts";
import { activateMfa } from "../../../shared/verbs/mfa/activate.ts";
import { disableMfa } from "../../../shared/verbs/mfa/disable.ts";
import { regenerateBackupCodes } from "../../../shared/verbs/mfa/regenerate-backup-codes.ts";
import { setupMfa } from "../../../shared/verbs/mfa/setup.ts";
import { verifyMfa } from "../../../shared/verbs/mfa/verify.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { sessionAnswer } from "./respond.ts";
import { signInArgs } from "./sign-in-args.ts";

export function mfaRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/mfa/setup",
      tag: "auth",
      summary: "Start MFA enrolment: a new TOTP secret (pending until activated) and its otpauth:// URI",
      response: { schema: MfaSetup },
      errors: [409],
    },
    async (c, { reply }) => reply(await setupMfa({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/mfa/activate",
      tag: "auth",
      summary: "Turn MFA on with a code for the pending secret; answers the backup codes once",
      body: MfaCodeBody,
      response: { schema: BackupCodes },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await activateMfa({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/mfa/verify",
      tag: "auth",
      auth: "public",
      summary: "Second sign-in step: the mfa_token from /auth/login plus a TOTP or backup code; answers like a login",
      body: MfaVerifyBody,
      response: { schema: SessionResponse },
    },
    async (c, { body, reply }) => reply(sessionAnswer(c, await verifyMfa(await signInArgs(c, body)))),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/mfa/disable",
      tag: "auth",
      summary: "Turn MFA off (needs the current password and a valid code)",
      body: MfaDisableBody,
      response: { schema: Detail },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await disableMfa({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/mfa/backup-codes/regenerate",
      tag: "auth",
      summary: "A new set of backup codes (needs a valid code); every older backup code stops working",
      body: MfaCodeBody,
      response: { schema: BackupCodes },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await regenerateBackupCodes({ ctx: verbContext(c), input: body })),
  );
}
