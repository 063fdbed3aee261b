// POST /discovery/profiles/{id}/pause and /resume: a paused profile is not run by the schedule (run-now
// still works). Pausing again keeps the original paused_at (reference); resuming computes the next run.
import { eq } from "drizzle-orm";
import { discoveryProfiles } from "../../../db/schema/index.ts";
import type { DiscoveryProfileOut } from "../../../schemas/discovery.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { profileNextRun } from "./next-run.ts";
import { presentProfile, requireProfile } from "./profile-row.ts";
import { announceProfile, auditProfileChange } from "./write-profiles.ts";

export const setProfilePaused = defineVerb<{ id: number; paused: boolean }, DiscoveryProfileOut>(
  { scope: WRITE_DISCOVERY },
  async (s, { id, paused }) => {
    const before = await requireProfile(s.tx, id, true);
    if (paused === (before.paused_at !== null)) return presentProfile(before);
    const paused_at = paused ? s.now : null;
    const next_run_at = profileNextRun({ ...before, paused_at }, s.now);
    const [row] = await s.tx
      .update(discoveryProfiles)
      .set({ paused_at, next_run_at, updated_at: s.now })
      .where(eq(discoveryProfiles.id, id))
      .returning();
    auditProfileChange(s, paused ? "pause" : "resume", id, {
      before: { paused_at: before.paused_at?.toISOString() ?? null },
      after: { paused_at: paused_at?.toISOString() ?? null },
    });
    announceProfile(s, paused ? "paused" : "resumed", row!);
    return presentProfile(row!);
  },
);
