// POST, PATCH and DELETE /discovery/profiles: one transaction each, audited, announced on /discovery/stream.
// The SNMP community is sealed bound to the row (so a create seals after the insert gave the id); PATCH
// with snmp_community null clears it, leaving it out keeps it.
import { eq } from "drizzle-orm";
import { discoveryProfiles } from "../../../db/schema/index.ts";
import type { DiscoveryProfileOut, ProfileCreateInput, ProfilePatchInput } from "../../../schemas/discovery.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { DELETE_DISCOVERY, WRITE_DISCOVERY } from "../scopes.ts";
import { storeProfileCommunity } from "../jobs/snmp-community.ts";
import { checkProfile, mergeProfile, targetsField } from "./profile-fields.ts";
import { auditProfile, presentProfile, type ProfileRow, requireProfile } from "./profile-row.ts";
import { vaultOf } from "../../verb-context.ts";

export function announceProfile(s: VerbScope, action: string, profile: ProfileRow | { id: number }): void {
  s.emit("discovery", {
    type: "profile_update",
    action,
    profile_id: profile.id,
    ...("name" in profile ? { profile: presentProfile(profile) } : {}),
  });
}

export function auditProfileChange(s: VerbScope, what: string, id: number, diff: Record<string, unknown>): void {
  s.audit({ action: `discovery.profile.${what}`, category: "discovery", entity_type: "discovery_profile", entity_id: id, diff });
}

interface WriteInput<B> {
  body: B;
  allowed: readonly string[];
}

export const createProfile = defineVerb<WriteInput<ProfileCreateInput>, DiscoveryProfileOut>(
  { scope: WRITE_DISCOVERY },
  async (s, { body, allowed }) => {
    const vault = vaultOf(s.ctx);
    const values = await checkProfile(s.tx, mergeProfile(body, null), allowed, s.now, body.scan_types !== undefined, targetsField(body));
    const [inserted] = await s.tx
      .insert(discoveryProfiles)
      .values({ ...values, created_at: s.now, updated_at: s.now })
      .returning();
    let row = inserted!;
    if (body.snmp_community) {
      await storeProfileCommunity(s, vault, row.id, body.snmp_community);
      row = await requireProfile(s.tx, row.id);
    }
    auditProfileChange(s, "create", row.id, { after: auditProfile(row) });
    announceProfile(s, "created", row);
    return presentProfile(row);
  },
);

export const updateProfile = defineVerb<WriteInput<ProfilePatchInput> & { id: number }, DiscoveryProfileOut>(
  { scope: WRITE_DISCOVERY },
  async (s, { id, body, allowed }) => {
    const vault = vaultOf(s.ctx);
    const before = await requireProfile(s.tx, id, true);
    const values = await checkProfile(s.tx, mergeProfile(body, before), allowed, s.now, body.scan_types !== undefined, targetsField(body));
    const [updated] = await s.tx
      .update(discoveryProfiles)
      .set({ ...values, updated_at: s.now })
      .where(eq(discoveryProfiles.id, id))
      .returning();
    let row = updated!;
    if (body.snmp_community !== undefined) {
      await storeProfileCommunity(s, vault, id, body.snmp_community);
      row = await requireProfile(s.tx, id);
    }
    auditProfileChange(s, "update", id, { before: auditProfile(before), after: auditProfile(row) });
    announceProfile(s, "updated", row);
    return presentProfile(row);
  },
);

/** Deletes the profile; its jobs stay (profile_id set null by the foreign key), history intact. */
export const deleteProfile = defineVerb<{ id: number }, void>({ scope: DELETE_DISCOVERY }, async (s, { id }) => {
  const before = await requireProfile(s.tx, id, true);
  await s.tx.delete(discoveryProfiles).where(eq(discoveryProfiles.id, id));
  auditProfileChange(s, "delete", id, { before: auditProfile(before) });
  announceProfile(s, "deleted", { id });
});
