// The end states a runner gives a job: completed (drift reported and, for an IPAM scan, the network's
// addresses updated, in the same transaction) or failed with a reason. Each is a compare-and-set on a
// running job: a job cancelled meanwhile stays cancelled and null is answered.
import { and, eq } from "drizzle-orm";
import { scanJobs } from "../../../db/schema/index.ts";
import type { Logger } from "../../../logger.ts";
import { analyseAfterDiscovery } from "../../privacy/after-discovery.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import type { VerbContext } from "../../verb-context.ts";
import { applyIpamScan } from "../ipam/apply-ipam-scan.ts";
import { reportDrift } from "../results/drift.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { emitJobUpdate, type ScanJobRow } from "./job-events.ts";

export interface FinishInput {
  job_id: number;
  addresses_done?: number;
  message?: string;
}

export const finishScanJob = defineVerb<FinishInput, ScanJobRow | null>({ scope: WRITE_DISCOVERY }, async (s, input) => {
  const [row] = await s.tx
    .update(scanJobs)
    .set({
      status: "completed",
      completed_at: s.now,
      updated_at: s.now,
      progress_phase: "done",
      progress_message: input.message?.slice(0, 500) ?? "Scan completed",
      error_reason: null,
      ...(input.addresses_done !== undefined ? { addresses_done: input.addresses_done } : {}),
    })
    .where(and(eq(scanJobs.id, input.job_id), eq(scanJobs.status, "running")))
    .returning();
  if (!row) return null;
  await reportDrift(s, row.id);
  await applyIpamIfAsked(s, row);
  emitJobUpdate(s, row);
  return row;
});

/**
 * What a runner calls when a scan ran to its end: the job completed (finishScanJob), then the privacy
 * analysis of what it found, in its own transaction, whose failure is logged and changes nothing here.
 */
export async function completeScanJob(ctx: VerbContext, logger: Logger, input: FinishInput): Promise<ScanJobRow | null> {
  const row = await finishScanJob({ ctx, input });
  if (row) await analyseAfterDiscovery(ctx, logger, row.id);
  return row;
}

/** An IPAM scan (POST /ipam/scan/{network_id}) updates the network's addresses in the same transaction. */
async function applyIpamIfAsked(s: VerbScope, row: ScanJobRow): Promise<void> {
  if (row.options.ipam_network_id != null) await applyIpamScan(s, row.id);
}

export interface FailInput {
  job_id: number;
  error_text: string;
  /** interrupted | shutdown | tool_missing | timeout | agent_offline | engine_error ... */
  error_reason: string;
  /** Only fail it when this instance holds it (the drain must not fail another sidecar's job). */
  claimed_by?: string;
}

export const failScanJob = defineVerb<FailInput, ScanJobRow | null>({ scope: WRITE_DISCOVERY }, async (s, input) => {
  return failJob(s, input);
});

export async function failJob(s: VerbScope, input: FailInput): Promise<ScanJobRow | null> {
  const held = input.claimed_by === undefined ? undefined : eq(scanJobs.claimed_by, input.claimed_by);
  const [row] = await s.tx
    .update(scanJobs)
    .set({
      status: "failed",
      completed_at: s.now,
      updated_at: s.now,
      error_text: input.error_text.slice(0, 2000),
      error_reason: input.error_reason.slice(0, 64),
      progress_phase: "failed",
      progress_message: input.error_text.slice(0, 500),
    })
    .where(and(eq(scanJobs.id, input.job_id), eq(scanJobs.status, "running"), held))
    .returning();
  if (row) emitJobUpdate(s, row);
  return row ?? null;
}
