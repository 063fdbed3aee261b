// SNMP communities of discovery, sealed by the vault bound to their row (secret-columns.ts): a profile's,
// and an ad-hoc scan job's. A job a profile started carries none of its own (the scheduler runs without
// the vault): the runner opens its profile's. Never returned, logged or sent in an event.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { discoveryProfiles, scanJobs } from "../../../db/schema/index.ts";
import type { Vault } from "../../../vault/vault.ts";
import { DISCOVERY_PROFILE_SNMP_COMMUNITY, openSecret, SCAN_JOB_SNMP_COMMUNITY, sealSecret } from "../../vault/secret-columns.ts";
import { assertVaultWritable } from "../../vault/writable.ts";
import type { VerbScope } from "../../verb.ts";

/** Seals `community` into scan job `jobId` (refused with 503 while the vault cannot write); answers the row. */
export async function storeJobCommunity(
  s: VerbScope,
  vault: Vault,
  jobId: number,
  community: string,
): Promise<typeof scanJobs.$inferSelect> {
  await assertVaultWritable(s.tx, vault, s.now);
  const sealed = await sealSecret(vault, SCAN_JOB_SNMP_COMMUNITY, jobId, community);
  const [row] = await s.tx.update(scanJobs).set({ snmp_community: sealed }).where(eq(scanJobs.id, jobId)).returning();
  return row!;
}

/** Seals (or with null clears) the community of profile `profileId`. */
export async function storeProfileCommunity(s: VerbScope, vault: Vault, profileId: number, community: string | null): Promise<void> {
  if (community !== null) await assertVaultWritable(s.tx, vault, s.now);
  const sealed = community === null ? null : await sealSecret(vault, DISCOVERY_PROFILE_SNMP_COMMUNITY, profileId, community);
  await s.tx.update(discoveryProfiles).set({ snmp_community: sealed }).where(eq(discoveryProfiles.id, profileId));
}

/** The clear community a job runs with: its own, else its profile's, else null. Throws VaultError when the key cannot open it. */
export async function openJobCommunity(
  db: Db,
  vault: Vault,
  job: { id: number; profile_id: number | null; snmp_community: string | null },
): Promise<string | null> {
  if (job.snmp_community) return openSecret(vault, SCAN_JOB_SNMP_COMMUNITY, job.id, job.snmp_community);
  if (job.profile_id == null) return null;
  const [profile] = await db
    .select({ sealed: discoveryProfiles.snmp_community })
    .from(discoveryProfiles)
    .where(eq(discoveryProfiles.id, job.profile_id));
  return profile?.sealed ? openSecret(vault, DISCOVERY_PROFILE_SNMP_COMMUNITY, job.profile_id, profile.sealed) : null;
}
