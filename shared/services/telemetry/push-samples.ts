// POST /hardware/{id}/telemetry/samples (DESIGN.md 3): a batch of up to 1000 samples from a token with
// write:telemetry. All or nothing: every bad timestamp is named by index and nothing is stored; good
// batches go in with one multi-row insert, status changes apply in ts order, one audit entry per request.
import type { SampleInput } from "../../schemas/telemetry.ts";
import { readSetting } from "../../settings/read.ts";
import { hardwareLiveMetrics } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ServiceContext } from "../context.ts";
import { requireScope, runInTransaction } from "../verb.ts";
import { applyStatusSamples, type StatusSample } from "./apply-status.ts";
import { requireHardwareRow } from "./hardware-row.ts";
import { sampleTimeIssues } from "./sample-window.ts";

export const PUSH_SCOPE = "write:telemetry";

export async function pushSamples({ ctx, hardwareId, samples }: { ctx: ServiceContext; hardwareId: number; samples: SampleInput[] }) {
  requireScope(ctx, PUSH_SCOPE);
  return runInTransaction(ctx, {}, async (s) => {
    const node = await requireHardwareRow(s.tx, hardwareId, { forUpdate: true });
    const warmDays = await readSetting(s.tx, "telemetry_warm_days");
    const issues = sampleTimeIssues(samples.map((x) => x.ts), s.now, warmDays);
    if (issues.length > 0) throw ApiError.validation(issues);

    await s.tx.insert(hardwareLiveMetrics).values(
      samples.map((x) => ({
        hardware_id: hardwareId,
        ts: x.ts,
        cpu_pct: x.cpu_pct ?? null,
        mem_pct: x.mem_pct ?? null,
        disk_pct: x.disk_pct ?? null,
        temp_c: x.temp_c ?? null,
        net_rx_bps: x.net_rx_bps ?? null,
        net_tx_bps: x.net_tx_bps ?? null,
        uptime_s: x.uptime_s ?? null,
        status: x.status ?? null,
        source: "push",
      })),
    );
    const reported = samples.filter((x): x is SampleInput & StatusSample => x.status === "up" || x.status === "down");
    const outcome = await applyStatusSamples(s, node, reported, "push");
    s.audit({
      action: "telemetry.push",
      category: "telemetry",
      entity_type: "hardware",
      entity_id: hardwareId,
      diff: { count: samples.length, status_changes: outcome.changes, ...(outcome.changes > 0 ? { status: { before: node.status, after: outcome.status } } : {}) },
    });
    s.emit("telemetry", { hardware_id: hardwareId, count: samples.length });
    return { hardware_id: hardwareId, stored: samples.length, status: outcome.status, status_changes: outcome.changes };
  });
}
