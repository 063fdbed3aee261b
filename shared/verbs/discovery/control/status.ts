// GET /discovery/status (reference DiscoveryStatusOut, plus `paused`): the open jobs (at most 20, newest
// first), results waiting for review, the last finished scan, the next scheduled profile run, and what the
// worker's readiness probe said about raw sockets and Docker. Our scans run in the reference's "safe" mode
// (connect scans, no raw packets), so both modes are "safe".
import { and, count, desc, eq, inArray, isNotNull, isNull, like, max, min } from "drizzle-orm";
import { discoveryProfiles, externalRefs, scanJobs, scanResults } from "../../../db/schema/index.ts";
import { OPEN_JOB_STATUSES } from "../../../schemas/discovery.ts";
import { defineRead } from "../../verb.ts";
import { presentJob } from "../jobs/present-job.ts";
import { discoveryPaused } from "../run/pause-state.ts";
import { READ_DISCOVERY } from "../scopes.ts";
import { capabilityState, readReadiness } from "./readiness-state.ts";

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export const discoveryStatus = defineRead({ scope: READ_DISCOVERY }, async (ctx, _input: void) => {
  const db = ctx.db;
  const [active, [pending], [last], [next], [containers], readiness, paused] = await Promise.all([
    db
      .select()
      .from(scanJobs)
      .where(inArray(scanJobs.status, [...OPEN_JOB_STATUSES]))
      .orderBy(desc(scanJobs.id))
      .limit(20),
    db.select({ n: count() }).from(scanResults).where(eq(scanResults.merge_status, "pending")),
    db
      .select({ at: max(scanJobs.completed_at) })
      .from(scanJobs)
      .where(eq(scanJobs.status, "completed")),
    db
      .select({ at: min(discoveryProfiles.next_run_at) })
      .from(discoveryProfiles)
      .where(and(eq(discoveryProfiles.enabled, true), isNull(discoveryProfiles.paused_at), isNotNull(discoveryProfiles.next_run_at))),
    db
      .select({ n: count() })
      .from(externalRefs)
      .where(and(like(externalRefs.source, "docker%"), eq(externalRefs.entity_type, "compute_unit"))),
    readReadiness(db),
    discoveryPaused(db),
  ]);
  return {
    discovery_enabled: !paused,
    scan_ack_accepted: true,
    paused,
    pending_results: pending?.n ?? 0,
    active_jobs: active.map(presentJob),
    last_scan: iso(last?.at),
    next_scheduled: paused ? null : iso(next?.at),
    discovery_mode: "safe",
    effective_mode: "safe",
    net_raw_capable: capabilityState(readiness, "icmp") === "ready" && capabilityState(readiness, "arp") === "ready",
    docker_available: capabilityState(readiness, "docker") === "ready",
    docker_container_count: containers?.n ?? 0,
  };
});

export const discoveryReadiness = defineRead({ scope: "admin:*" }, async (ctx, _input: void) => readReadiness(ctx.db));
