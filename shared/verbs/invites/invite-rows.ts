// An invite's state and the shape the API shows (never the token or its hash).
import { and, eq, gt, isNotNull, isNull, lte, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { invites } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { fitsSerial } from "../admin-users/user-rows.ts";

export type InviteRow = typeof invites.$inferSelect;
export const INVITE_STATUSES = ["pending", "accepted", "revoked", "expired"] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export function inviteStatus(row: InviteRow, now: Date): InviteStatus {
  if (row.accepted_at) return "accepted";
  if (row.revoked_at) return "revoked";
  return row.expires_at > now ? "pending" : "expired";
}

/** The same rule as inviteStatus, as a WHERE condition. */
export function inviteStatusIs(status: InviteStatus, now: Date): SQL {
  const open = and(isNull(invites.accepted_at), isNull(invites.revoked_at));
  if (status === "accepted") return isNotNull(invites.accepted_at);
  if (status === "revoked") return and(isNull(invites.accepted_at), isNotNull(invites.revoked_at))!;
  return and(open, status === "pending" ? gt(invites.expires_at, now) : lte(invites.expires_at, now))!;
}

export function publicInvite(row: InviteRow, now: Date) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: inviteStatus(row, now),
    expires_at: row.expires_at.toISOString(),
    accepted_at: row.accepted_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}
export type PublicInvite = ReturnType<typeof publicInvite>;

export async function lockInvite(tx: Db, id: number): Promise<InviteRow> {
  const [row] = fitsSerial(id) ? await tx.select().from(invites).where(eq(invites.id, id)).for("update") : [];
  if (!row) throw ApiError.notFound("Invite", id);
  return row;
}

/**
 * Where the web UI takes the invitee: absolute when the deployment's public address is known (set at
 * POST /bootstrap/domain), else relative. The token travels in the query and is never stored in clear.
 */
export function inviteUrl(token: string, publicUrl = ""): string {
  return `${publicUrl}/accept-invite?token=${encodeURIComponent(token)}`;
}

const INVITE_LOCK = 7_246_011; // fixed advisory lock key: making invites live (one live invite per e-mail)

/** 409 when another invite for this e-mail is still open; takes the lock that makes the rule hold. */
export async function assertNoOtherLiveInvite(tx: Db, email: string, now: Date, exceptId?: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${INVITE_LOCK})`);
  const [live] = await tx
    .select({ id: invites.id })
    .from(invites)
    .where(
      and(sql`lower(${invites.email}) = lower(${email})`, inviteStatusIs("pending", now), exceptId ? ne(invites.id, exceptId) : undefined),
    );
  if (live) throw ApiError.conflict(`Invite ${live.id} for ${email} is still open; revoke or extend it instead.`);
}

export const MAX_INVITE_HOURS = 24 * 30;
