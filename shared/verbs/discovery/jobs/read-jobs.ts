// GET /discovery/jobs (list envelope, newest first by default), /jobs/{id} and /jobs/{id}/logs (the
// reference's ascending log, filtered by level, at most `limit` entries).
import { and, asc, eq, type SQL } from "drizzle-orm";
import { scanJobs, scanLogs } from "../../../db/schema/index.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import type { ScanJobOut } from "../../../schemas/discovery.ts";
import { type ListPage, type ListSpec, listPage } from "../../resources/list.ts";
import { defineRead } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";
import { requireJob } from "./job-row.ts";
import { presentJob, type ScanJobRow } from "./present-job.ts";

const SPEC: ListSpec = {
  table: scanJobs,
  id: scanJobs.id,
  sortable: {
    id: scanJobs.id,
    created_at: scanJobs.created_at,
    status: scanJobs.status,
    started_at: scanJobs.started_at,
    completed_at: scanJobs.completed_at,
    hosts_found: scanJobs.hosts_found,
  },
  search: [scanJobs.label, scanJobs.target_cidr],
};

export interface JobListInput extends ListParams {
  status?: string | undefined;
  source_type?: string | undefined;
  profile_id?: number | undefined;
  scan_agent_id?: number | undefined;
}

const filters = (i: JobListInput): (SQL | undefined)[] => [
  i.status !== undefined ? eq(scanJobs.status, i.status) : undefined,
  i.source_type !== undefined ? eq(scanJobs.source_type, i.source_type) : undefined,
  i.profile_id !== undefined ? eq(scanJobs.profile_id, i.profile_id) : undefined,
  i.scan_agent_id !== undefined ? eq(scanJobs.scan_agent_id, i.scan_agent_id) : undefined,
];

export const listScanJobs = defineRead<JobListInput, ListPage<ScanJobOut>>({ scope: READ_DISCOVERY }, (ctx, input) =>
  listPage<ScanJobRow, ScanJobOut>(ctx.db, SPEC, input, filters(input), (rows) => rows.map(presentJob)),
);

export const getScanJob = defineRead<{ id: number }, ScanJobOut>({ scope: READ_DISCOVERY }, async (ctx, { id }) =>
  presentJob(await requireJob(ctx.db, id)),
);

export const listJobLogs = defineRead<{ id: number; level?: string | undefined; limit: number }, ReturnType<typeof presentLog>[]>(
  { scope: READ_DISCOVERY },
  async (ctx, input) => {
    await requireJob(ctx.db, input.id);
    const rows = await ctx.db
      .select()
      .from(scanLogs)
      .where(and(eq(scanLogs.scan_job_id, input.id), input.level ? eq(scanLogs.level, input.level) : undefined))
      .orderBy(asc(scanLogs.id))
      .limit(input.limit);
    return rows.map(presentLog);
  },
);

function presentLog(r: typeof scanLogs.$inferSelect) {
  return {
    id: r.id,
    scan_job_id: r.scan_job_id,
    timestamp: r.timestamp.toISOString(),
    level: r.level,
    phase: r.phase,
    message: r.message,
    details: r.details ?? null,
    created_at: r.created_at.toISOString(),
  };
}
