// GET /admin/users: every account, searchable and sortable (docs/architecture.md, API contracts list contract).
import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { type ListPage, type ListSpec, listPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import { type AdminUser, adminUsersOf, type UserRow } from "./user-rows.ts";

export const USER_SORTS = ["name", "email", "role", "created_at", "last_login_at"] as const;

export interface ListUsersInput extends ListParams {
  role?: string | undefined;
  is_active?: boolean | undefined;
}

const SPEC: ListSpec = {
  table: users,
  id: users.id,
  sortable: {
    // A user without a display name sorts by the e-mail, as the UI shows it.
    name: sql`lower(coalesce(${users.display_name}, ${users.email}))`,
    email: sql`lower(${users.email})`,
    role: users.role,
    created_at: users.created_at,
    last_login_at: users.last_login_at,
  },
  search: [users.email, users.display_name],
};

export const listUsers = defineRead<ListUsersInput, ListPage<AdminUser>>({ scope: "admin:*" }, async (ctx, input) =>
  listPage<UserRow, AdminUser>(
    ctx.db,
    SPEC,
    input,
    [
      input.role !== undefined ? eq(users.role, input.role) : undefined,
      input.is_active !== undefined ? eq(users.is_active, input.is_active) : undefined,
    ],
    (rows) => adminUsersOf(ctx.db, rows),
  ),
);
