// Request fields the administration routes share (users, invites, /users/{id}, accept-invite).
import * as v from "valibot";

/** An empty display name clears it. */
export const DisplayName = v.pipe(
  v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(120))),
  v.transform((s) => (s ? s : null)),
);

export const RoleName = v.pipe(v.string(), v.trim(), v.minLength(1, "A role is required."), v.maxLength(64));

/** A boolean list filter (query values are strings). */
export const BooleanParam = v.pipe(
  v.picklist(["true", "false"], "Use true or false."),
  v.transform((s) => s === "true"),
);

/** Fields of the user's read shape a client may send back with a whole record; ignored (docs/architecture.md, API contracts). */
export const USER_READ_ONLY = [
  "scopes",
  "is_admin",
  "mfa_enabled",
  "is_service_account",
  "must_change_password",
  "avatar_url",
  "last_login_at",
  "failed_logins",
  "locked_until",
  "masquerade_by",
  // The user's own choice (PATCH /users/me); an administrator does not pick it for them.
  "locale",
];
