import type { users } from "../../db/schema/index.ts";
import type { Locale } from "../../identity/locales.ts";

type UserRow = typeof users.$inferSelect;

/** The user as the API shows it (docs/architecture.md, API contracts): never a hash or an MFA secret. */
export function publicUser(u: UserRow, scopes: string[]) {
  return {
    id: u.id,
    email: u.email,
    display_name: u.display_name,
    role: u.role,
    scopes,
    is_admin: u.role === "admin",
    mfa_enabled: u.mfa_enabled,
    is_active: u.is_active,
    is_service_account: u.is_service_account,
    must_change_password: u.must_change_password,
    avatar_url: u.avatar_path ? `/user-icons/${u.avatar_path}` : null,
    locale: u.locale as Locale | null,
    last_login_at: u.last_login_at?.toISOString() ?? null,
    created_at: u.created_at.toISOString(),
  };
}
export type PublicUser = ReturnType<typeof publicUser>;
