// [users] request and response shapes of the caller's own account: the profile (/users/me, /auth/me),
// the password, the sessions and deleting the account. The user shape itself is auth.ts's PublicUser.
import * as v from "valibot";
import { DisplayName, USER_READ_ONLY } from "../verbs/admin-users/input-schemas.ts";
import { LOCALES } from "../identity/locales.ts";
import { Email, Password, PublicUser } from "./auth.ts";
import { writeBody } from "./fields.ts";

export const Me = v.object({ ...PublicUser.entries, masquerade_by: v.nullable(v.number()) });

/** Besides the always read-only fields, a user cannot change these about themselves. */
const SELF_READ_ONLY = [...USER_READ_ONLY, "role", "is_active", "must_change_password"];
export const ProfilePatch = writeBody(
  {
    display_name: v.optional(DisplayName),
    email: v.optional(Email),
    current_password: v.optional(v.pipe(Password, v.description("Required when email changes."))),
    locale: v.optional(
      v.pipe(
        v.nullable(v.picklist(LOCALES, `Must be one of: ${LOCALES.join(", ")}, or null.`)),
        v.description("The console's language; null follows the browser."),
      ),
    ),
  },
  SELF_READ_ONLY,
);
export const PasswordChangeBody = v.object({ current_password: Password, new_password: Password });
export const PasswordChanged = v.object({ detail: v.string(), revoked_sessions: v.number() });
export const DeleteAccountBody = v.object({ password: Password });

export const Session = v.object({
  id: v.string(),
  created_at: v.string(),
  last_seen_at: v.nullable(v.string()),
  expires_at: v.string(),
  ip_address: v.nullable(v.string()),
  user_agent: v.nullable(v.string()),
  current: v.pipe(v.boolean(), v.description("True for the session making this request.")),
});
export const Sessions = v.array(Session);
export const SessionIdParam = v.object({ session_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) });
export const SessionsRevoked = v.object({ revoked: v.number() });
