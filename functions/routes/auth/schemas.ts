import * as v from "valibot";

export const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email("Enter a valid email address."), v.maxLength(254));
export const Password = v.pipe(v.string(), v.minLength(1, "Password is required."), v.maxLength(1024));

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
  last_login_at: v.nullable(v.string()),
  created_at: v.string(),
});

export const SessionResponse = v.object({ token: v.string(), user: PublicUser, csrf_token: v.string() });
export const LoginResponse = v.union([
  SessionResponse,
  v.object({ requires_mfa: v.literal(true), mfa_token: v.string() }),
  v.object({ requires_change: v.literal(true), change_token: v.string() }),
]);
