// The worker's claim: up to `limit` queued server jobs (no scan_agent_id), oldest first, taken with FOR
// UPDATE SKIP LOCKED and set running in the same statement, so several sidecars never run one job twice.
// Nothing is claimed while the fleet-wide pause (app_settings discovery_paused) holds. Agent jobs are
// not claimed here: they are dispatched over the agent's link (../agents/dispatch.ts).
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { discoveryPaused } from "./pause-state.ts";
import { emitJobUpdate, type ScanJobRow } from "./job-events.ts";
import { rowOf } from "./row-of.ts";

export const claimScanJobs = defineVerb<{ owner: string; limit: number }, ScanJobRow[]>(
  { scope: WRITE_DISCOVERY },
  async (s, { owner, limit }) => {
    if (limit <= 0 || (await discoveryPaused(s.tx))) return [];
    const now = s.now.toISOString();
    const rows = await queryRows<Record<string, unknown>>(
      s.tx,
      sql`
    with next as (
      select id from scan_jobs
      where status = 'queued' and scan_agent_id is null
      order by id
      limit ${Math.min(limit, 100)}
      for update skip locked
    )
    update scan_jobs j set status = 'running', claimed_by = ${owner}, claimed_at = ${now}::timestamptz,
      started_at = coalesce(j.started_at, ${now}::timestamptz), updated_at = ${now}::timestamptz,
      error_reason = null, progress_phase = 'starting', progress_message = 'Claimed by the discovery worker'
    from next where j.id = next.id
    returning j.*`,
    );
    const claimed = rows.map(rowOf).sort((a, b) => a.id - b.id);
    for (const row of claimed) emitJobUpdate(s, row);
    return claimed;
  },
);
