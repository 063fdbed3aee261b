// Loading the user a verb acts on, and the admin's view of a user (the public shape plus lockout state).
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { publicUser } from "../auth/public-user.ts";

export type UserRow = typeof users.$inferSelect;

/** False for ids a serial column cannot hold (the path accepts 10 digits): those are simply not found. */
export function fitsSerial(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
}

/** The user row, locked for the rest of the transaction so concurrent changes queue behind it; 404 when absent. */
export async function lockUser(tx: Db, id: number): Promise<UserRow> {
  const [row] = fitsSerial(id) ? await tx.select().from(users).where(eq(users.id, id)).for("update") : [];
  if (!row) throw ApiError.notFound("User", id);
  return row;
}

export async function findUser(db: Db, id: number): Promise<UserRow> {
  const [row] = fitsSerial(id) ? await db.select().from(users).where(eq(users.id, id)) : [];
  if (!row) throw ApiError.notFound("User", id);
  return row;
}

/** What an administrator sees: the public shape, plus whether sign-in is locked and how many failures led there. */
export function adminUser(row: UserRow, scopes: string[]) {
  return { ...publicUser(row, scopes), failed_logins: row.failed_logins, locked_until: row.locked_until?.toISOString() ?? null };
}
export type AdminUser = ReturnType<typeof adminUser>;

export async function adminUserOf(db: Db, row: UserRow): Promise<AdminUser> {
  return adminUser(row, await roleScopes(db, row.role));
}

/** Admin shapes of many rows, resolving each distinct role's scopes once. */
export async function adminUsersOf(db: Db, rows: UserRow[]): Promise<AdminUser[]> {
  const scopes = new Map<string, string[]>();
  for (const role of new Set(rows.map((r) => r.role))) scopes.set(role, await roleScopes(db, role));
  return rows.map((r) => adminUser(r, scopes.get(r.role) ?? []));
}

export function emailTaken(email: string): ApiError {
  return ApiError.conflict(`A user with the email ${email} already exists.`);
}

/** 409 when another account already uses this e-mail (compared case-insensitively, like sign-in). */
export async function assertEmailFree(db: Db, email: string, exceptId?: number): Promise<void> {
  const rows = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
  if (rows.some((r) => r.id !== exceptId)) throw emailTaken(email);
}

/** Maps a unique-index race on the e-mail to the same 409 as the check before it. */
export function rethrowEmailTaken(email: string): (e: unknown) => never {
  return (e) => {
    throw isUniqueViolation(e) ? emailTaken(email) : e;
  };
}

/** True for PostgreSQL's unique_violation, whether the driver error comes bare or wrapped by drizzle. */
export function isUniqueViolation(e: unknown): boolean {
  for (let err = e as { code?: unknown; cause?: unknown } | undefined; err; err = err.cause as typeof err) {
    if (err.code === "23505") return true;
  }
  return false;
}
