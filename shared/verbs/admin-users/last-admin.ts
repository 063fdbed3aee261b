// "The last administrator can never be removed or demoted." Every change that can take an account out of
// the administrators (demote, deactivate, delete) takes this lock first, so two administrators removing
// each other at the same moment cannot both succeed.
import { and, count, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { UserRow } from "./user-rows.ts";

const ADMIN_SET_LOCK = 7_246_010; // fixed advisory lock key: changes to the set of active administrators

/** An administrator who can sign in: service accounts do not count, they cannot recover the system. */
export function isActiveAdmin(u: Pick<UserRow, "role" | "is_active" | "is_service_account">): boolean {
  return u.role === "admin" && u.is_active && !u.is_service_account;
}

/** 409 when `target` is the only active administrator left; `what` says what was refused. */
export async function assertAnotherAdminRemains(tx: Db, target: UserRow, what: string): Promise<void> {
  if (!isActiveAdmin(target)) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_SET_LOCK})`);
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.is_active, true), eq(users.is_service_account, false), ne(users.id, target.id)));
  if ((row?.n ?? 0) === 0)
    throw ApiError.conflict(
      `User ${target.id} is the last active administrator and cannot be ${what}; make another user an administrator first.`,
    );
}
