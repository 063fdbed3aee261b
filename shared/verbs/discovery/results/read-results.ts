// The result lists (GET /discovery/jobs/{job_id}/results, GET /discovery/results) and suggest: pages of the
// list envelope, newest first by default; with inference each result also says what it would become and
// which node it already is (one extra query for the page).
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { hardware, scanJobs, scanResults } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import { eqFilter } from "../../resources/filters.ts";
import { listPage, type ListSpec } from "../../resources/list.ts";
import { defineRead } from "../../verb.ts";
import { jobNotFound } from "../jobs/job-row.ts";
import { READ_DISCOVERY, WRITE_DISCOVERY } from "../scopes.ts";
import { inferResult } from "./infer.ts";
import { loadHostnameRules } from "./kb-rules.ts";
import { presentResult, type ScanResultRow } from "./present-result.ts";

const spec: ListSpec = {
  table: scanResults,
  id: scanResults.id,
  sortable: {
    id: scanResults.id,
    ip_address: scanResults.ip_address,
    created_at: scanResults.created_at,
    state: scanResults.state,
    merge_status: scanResults.merge_status,
  },
  search: [scanResults.ip_address, scanResults.hostname, scanResults.mac_address, scanResults.vendor],
};

async function withInference(db: Db, rows: ScanResultRow[]) {
  const hwIds = rows.filter((r) => r.matched_entity_type === "hardware" && r.matched_entity_id != null).map((r) => r.matched_entity_id!);
  const roles = new Map<number, string | null>();
  const rules = await loadHostnameRules(db);
  if (hwIds.length > 0)
    for (const h of await db.select({ id: hardware.id, role: hardware.role }).from(hardware).where(inArray(hardware.id, hwIds)))
      roles.set(h.id, h.role);
  return rows.map((r) => {
    const inf = inferResult(r, rules);
    const hwId =
      r.matched_entity_type === "hardware" && r.matched_entity_id != null && roles.has(r.matched_entity_id) ? r.matched_entity_id : null;
    return {
      ...presentResult(r),
      inferred_vendor: inf.vendor,
      inferred_role: inf.role,
      inferred_icon_slug: inf.icon_slug,
      confidence: inf.confidence,
      signals_used: inf.signals_used,
      exists_in_hardware: hwId !== null,
      existing_hardware_id: hwId,
      existing_role: hwId === null ? null : (roles.get(hwId) ?? null),
      is_new: r.state === "new",
    };
  });
}

export interface JobResultsInput extends ListParams {
  job_id: number;
  state?: string | undefined;
  merge_status?: string | undefined;
  with_inference: boolean;
}

export const listJobResults = defineRead({ scope: READ_DISCOVERY }, async (ctx, q: JobResultsInput) => {
  const [job] = await ctx.db.select({ id: scanJobs.id }).from(scanJobs).where(eq(scanJobs.id, q.job_id));
  if (!job) throw jobNotFound(q.job_id);
  const where = [
    eq(scanResults.scan_job_id, q.job_id),
    eqFilter(scanResults.state, q.state),
    eqFilter(scanResults.merge_status, q.merge_status),
  ];
  return listPage<ScanResultRow, ReturnType<typeof presentResult>>(ctx.db, spec, q, where, (rows) =>
    q.with_inference ? withInference(ctx.db, rows) : rows.map(presentResult),
  );
});

export interface ResultsInput extends ListParams {
  status: string;
  job_id?: number | undefined;
  agent_id?: number | undefined;
}

export const listResults = defineRead({ scope: READ_DISCOVERY }, async (ctx, q: ResultsInput) => {
  const where = [
    q.status === "all" ? undefined : eq(scanResults.merge_status, q.status),
    eqFilter(scanResults.scan_job_id, q.job_id),
    eqFilter(scanResults.discovery_agent_id, q.agent_id),
  ];
  return listPage<ScanResultRow, ReturnType<typeof presentResult>>(ctx.db, spec, q, where, (rows) => rows.map(presentResult));
});

/**
 * POST /discovery/results/suggest: per result, the node a merge would make or update. It writes nothing,
 * but as a POST it is gated like the merges it prepares (every POST refuses a viewer, docs/architecture.md, API contracts).
 */
export const suggestResults = defineRead({ scope: WRITE_DISCOVERY }, async (ctx, { result_ids }: { result_ids: number[] }) => {
  const rows = await ctx.db.select().from(scanResults).where(inArray(scanResults.id, result_ids)).orderBy(scanResults.id);
  const missing = result_ids.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length > 0)
    throw new ApiError("RESOURCE_NOT_FOUND", `Scan result not found: there is no scan result ${missing.slice(0, 20).join(", ")}.`);
  const rules = await loadHostnameRules(ctx.db);
  return {
    suggestions: rows.map((r) => {
      const inf = inferResult(r, rules);
      const existing = r.matched_entity_type === "hardware" ? r.matched_entity_id : null;
      return {
        result_id: r.id,
        ip_address: r.ip_address,
        name: inf.name,
        vendor: inf.vendor,
        role: inf.role,
        icon_slug: inf.icon_slug,
        confidence: inf.confidence,
        signals_used: inf.signals_used,
        existing_hardware_id: existing,
        action: r.state === "conflict" ? ("review" as const) : r.state === "matched" ? ("update" as const) : ("create" as const),
      };
    }),
  };
});
