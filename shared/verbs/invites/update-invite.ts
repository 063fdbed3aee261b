// PATCH /admin/invites/{id}: revoke an open invite, or move its expiry to `expires_in_hours` from now.
// An accepted invite is history and cannot change.
import { eq } from "drizzle-orm";
import { invites } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";
import { assertNoOtherLiveInvite, inviteStatus, lockInvite, type PublicInvite, publicInvite } from "./invite-rows.ts";

export type UpdateInviteInput = { inviteId: number } & ({ revoke: true } | { expires_in_hours: number });

export const updateInvite = defineVerb<UpdateInviteInput, PublicInvite>({ scope: "admin:*" }, async (s, input) => {
  const before = await lockInvite(s.tx, input.inviteId);
  const status = inviteStatus(before, s.now);
  if (status === "accepted") throw ApiError.conflict(`Invite ${before.id} was already accepted.`);
  const entity = { category: "security", entity_type: "invite", entity_id: before.id } as const;
  if ("revoke" in input) {
    // Revoking twice changes nothing and is not an error.
    if (status === "revoked") return publicInvite(before, s.now);
    const [after] = await s.tx.update(invites).set({ revoked_at: s.now }).where(eq(invites.id, before.id)).returning();
    s.audit({ ...entity, action: "invite.revoked", diff: { before: { status }, after: { status: "revoked" } } });
    return publicInvite(after!, s.now);
  }
  if (status === "revoked") throw ApiError.conflict(`Invite ${before.id} was revoked; create a new one instead.`);
  // Reviving an expired invite must not make a second open invite for the address.
  if (status === "expired") await assertNoOtherLiveInvite(s.tx, before.email, s.now, before.id);
  const expires_at = new Date(s.now.getTime() + input.expires_in_hours * 3_600_000);
  const [after] = await s.tx.update(invites).set({ expires_at }).where(eq(invites.id, before.id)).returning();
  s.audit({
    ...entity,
    action: "invite.extended",
    diff: { before: { expires_at: before.expires_at.toISOString() }, after: { expires_at: expires_at.toISOString() } },
  });
  return publicInvite(after!, s.now);
});
