// The sign-in lockout's bookkeeping, per submitted e-mail (docs/adr/0322): a known and an unknown address
// are counted in the same table by the same statements, so neither the answer nor the work done tells
// whether an account has that e-mail. A known account's users.failed_logins and locked_until mirror its
// row (same statements, matching no user for an unknown address) for the administrators' view.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { loginFailures, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { readSetting } from "../../settings/read.ts";
import type { VerbScope } from "../verb.ts";

const INVALID = "Invalid email or password.";

/** The key of a submitted e-mail: lower-cased like the account lookup (the route trims it already). */
const keyOf = (email: string) => sql`lower(${email})`;
const sameEmail = (email: string) => sql`lower(${users.email}) = ${keyOf(email)}`;

/** Seconds until the lockout of `email` ends, or null when it is not locked. */
export async function lockedFor(db: Db, email: string, now: Date): Promise<number | null> {
  const [row] = await db
    .select({ until: loginFailures.locked_until })
    .from(loginFailures)
    .where(eq(loginFailures.email, keyOf(email)));
  if (!row?.until || row.until <= now) return null;
  return Math.ceil((row.until.getTime() - now.getTime()) / 1000);
}

/**
 * Counts a failed sign-in of `email` (in SQL, so parallel failures all count) and locks it at the
 * threshold; answers the refusal. `userId` (null when no account has the e-mail) only names the audit entries.
 */
export async function countFailure(s: VerbScope, email: string, userId: number | null): Promise<ApiError> {
  const threshold = await readSetting(s.tx, "lockout_threshold");
  const minutes = await readSetting(s.tx, "lockout_minutes");
  const [row] = await s.tx
    .insert(loginFailures)
    .values({ email: keyOf(email), failed: 1, updated_at: s.now })
    .onConflictDoUpdate({ target: loginFailures.email, set: { failed: sql`${loginFailures.failed} + 1`, updated_at: s.now } })
    .returning({ failed: loginFailures.failed });
  const failed = row!.failed;
  await s.tx.update(users).set({ failed_logins: failed }).where(sameEmail(email));
  const who = {
    entity_type: "user",
    entity_id: userId,
    diff: userId == null ? { email, failed_logins: failed } : { failed_logins: failed },
  } as const;
  s.audit({ action: "login.failed", category: "security", level: "warning", ...who });
  if (failed < threshold) return ApiError.unauthorized(INVALID);
  const until = new Date(s.now.getTime() + minutes * 60_000);
  await s.tx
    .update(loginFailures)
    .set({ locked_until: until })
    .where(eq(loginFailures.email, keyOf(email)));
  await s.tx.update(users).set({ locked_until: until }).where(sameEmail(email));
  s.audit({ action: "user.locked", category: "security", level: "critical", ...who });
  return new ApiError("ACCOUNT_LOCKED", "Too many failed sign-ins: the account is now locked.");
}

/** Forgets the failures counted against a user's e-mail (a good sign-in, an unlock, a new password). */
export async function forgetFailures(tx: Db, userId: number): Promise<void> {
  await tx
    .delete(loginFailures)
    .where(sql`${loginFailures.email} = (select lower(${users.email}) from ${users} where ${users.id} = ${userId})`);
}
