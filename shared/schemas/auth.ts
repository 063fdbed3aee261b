// [auth] request and response shapes of signing in and out, MFA and the user as it is answered
// (spec/catalogue.tsv, group auth; docs/architecture.md, API contracts). Tokens: tokens.ts; provider
// sign-in: oauth.ts; the caller's own account: account.ts.
import * as v from "valibot";
import { LOCALES } from "../identity/locales.ts";
import { DisplayName } from "../verbs/admin-users/input-schemas.ts";

export const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email("Enter a valid email address."), v.maxLength(254));
export const Password = v.pipe(v.string(), v.minLength(1, "Password is required."), v.maxLength(1024));

/** A plain confirmation. */
export const Detail = v.object({ detail: v.string() });

export const PublicUser = v.object({
  id: v.number(),
  email: v.string(),
  display_name: v.nullable(v.string()),
  role: v.string(),
  scopes: v.array(v.string()),
  is_admin: v.boolean(),
  mfa_enabled: v.boolean(),
  is_active: v.boolean(),
  is_service_account: v.boolean(),
  must_change_password: v.boolean(),
  avatar_url: v.nullable(v.string()),
  locale: v.pipe(v.nullable(v.picklist(LOCALES)), v.description("The console's language; null follows the browser.")),
  last_login_at: v.nullable(v.string()),
  created_at: v.string(),
});

export const SessionResponse = v.object({ token: v.string(), user: PublicUser, csrf_token: v.string() });
export const MfaChallenge = v.object({ requires_mfa: v.literal(true), mfa_token: v.string() });
export const ChangeChallenge = v.object({ requires_change: v.literal(true), change_token: v.string() });
export const LoginResponse = v.union([SessionResponse, MfaChallenge, ChangeChallenge]);

export const Credentials = v.object({ email: Email, password: Password });

/** POST /auth/jwt/login: JSON {email, password} or the OAuth2 password form's username/password. */
export const JwtLoginBody = v.pipe(
  v.object({ email: v.optional(Email), username: v.optional(Email), password: Password }),
  v.check((b) => Boolean(b.email ?? b.username), "Send email (or username) and password."),
  v.transform((b) => ({ email: (b.email ?? b.username)!, password: b.password })),
);
export const JwtLoginResponse = v.union([
  v.object({ access_token: v.string(), token_type: v.literal("bearer") }),
  MfaChallenge,
  ChangeChallenge,
]);

export const ForceChangePasswordBody = v.object({
  change_token: v.pipe(v.string(), v.minLength(1, "The change_token is required."), v.maxLength(4096)),
  new_password: Password,
});
export const RegisterBody = v.object({ email: Email, password: Password, display_name: v.optional(DisplayName) });
export const AcceptInviteBody = v.object({
  token: v.pipe(v.string(), v.minLength(1, "The invite token is required."), v.maxLength(200)),
  password: Password,
  display_name: v.optional(DisplayName),
});

// MFA

const MfaCode = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "The code is required."),
  v.maxLength(64),
  v.description("A 6-digit code from the authenticator app, or one unused backup code (xxxx-xxxx-xxxx)."),
);
export const MfaCodeBody = v.object({ code: MfaCode });
export const MfaVerifyBody = v.object({
  mfa_token: v.pipe(v.string(), v.minLength(1, "The mfa_token is required."), v.maxLength(4096)),
  code: MfaCode,
});
export const MfaDisableBody = v.object({ password: Password, code: MfaCode });
export const MfaSetup = v.object({ secret: v.string(), otpauth_uri: v.string() });
export const BackupCodes = v.object({
  backup_codes: v.pipe(v.array(v.string()), v.description("Shown in this answer only: store them somewhere safe.")),
});
