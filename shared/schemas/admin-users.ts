// [admin-users] request and response shapes of user administration (/admin/users*, /users/{id}) and of
// invites (/admin/invites*). The user's public shape is auth.ts's PublicUser.
import * as v from "valibot";
import { BooleanParam, DisplayName, RoleName, USER_READ_ONLY } from "../verbs/admin-users/input-schemas.ts";
import { USER_SORTS } from "../verbs/admin-users/list-users.ts";
import { MASQUERADE_MAX_MINUTES } from "../verbs/admin-users/masquerade.ts";
import { INVITE_STATUSES, MAX_INVITE_HOURS } from "../verbs/invites/invite-rows.ts";
import { INVITE_SORTS } from "../verbs/invites/list-invites.ts";
import { Email, Password, PublicUser, SessionResponse } from "./auth.ts";
import { writeBody } from "./fields.ts";
import { listQuery, listResponse } from "./list-query.ts";

/** The user as an administrator sees it: the public shape plus the lockout state. */
export const AdminUser = v.object({ ...PublicUser.entries, failed_logins: v.number(), locked_until: v.nullable(v.string()) });
/** GET /users/{id}: administrators read the administrator's shape, everyone else their own public one. */
export const AnyUser = v.union([AdminUser, PublicUser]);

export const UserListQuery = listQuery(USER_SORTS, { role: v.optional(v.string()), is_active: v.optional(BooleanParam) });
export const AdminUserList = listResponse(AdminUser);

/** PATCH /admin/users/{id} and PATCH /users/{id}. */
export const UserPatch = writeBody(
  { display_name: v.optional(DisplayName), email: v.optional(Email), role: v.optional(RoleName), is_active: v.optional(v.boolean()) },
  USER_READ_ONLY,
);
export const UserCreate = writeBody(
  {
    email: Email,
    password: v.optional(Password),
    display_name: v.optional(DisplayName),
    role: RoleName,
    must_change_password: v.optional(v.boolean()),
  },
  USER_READ_ONLY,
);
export const UserDeleted = v.object({ detail: v.string(), id: v.number() });

export const ResetPasswordBody = v.optional(v.object({ new_password: v.optional(Password) }), {});
export const PasswordReset = v.object({ user: AdminUser, temporary_password: v.nullable(v.string()), sessions_revoked: v.number() });
export const UserSessionsRevoked = v.object({ detail: v.string(), revoked: v.number() });

export const MasqueradeBody = v.optional(
  v.object({ minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MASQUERADE_MAX_MINUTES))) }),
  {},
);
export const MasqueradeSession = v.object({ ...SessionResponse.entries, masquerade: v.object({ by: v.number(), expires_at: v.string() }) });

// Invites

export const Invite = v.object({
  id: v.number(),
  email: v.string(),
  role: v.string(),
  status: v.picklist(INVITE_STATUSES),
  expires_at: v.string(),
  accepted_at: v.nullable(v.string()),
  revoked_at: v.nullable(v.string()),
  created_by: v.nullable(v.number()),
  created_at: v.string(),
});
export const InviteList = listResponse(Invite);
export const InviteListQuery = listQuery(INVITE_SORTS, { status: v.optional(v.picklist(INVITE_STATUSES)), role: v.optional(v.string()) });

const Hours = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_INVITE_HOURS, `At most ${MAX_INVITE_HOURS} hours (30 days).`));
const INVITE_READ_ONLY = Object.keys(Invite.entries).filter((k) => k !== "email" && k !== "role");
export const InviteCreate = writeBody({ email: Email, role: RoleName, expires_in_hours: v.optional(Hours) }, INVITE_READ_ONLY);
export const IssuedInvite = v.object({ ...Invite.entries, token: v.string(), invite_url: v.string() });
export const InvitePatch = v.union(
  [v.strictObject({ revoke: v.literal(true) }), v.strictObject({ expires_in_hours: Hours })],
  'Send either {"revoke": true} or {"expires_in_hours": n}.',
);
