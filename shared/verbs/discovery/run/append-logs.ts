// The job log (GET /discovery/jobs/{id}/logs): the worker buffers entries and writes them in one insert.
// Entries of jobs deleted meanwhile are dropped (the insert selects only existing jobs).
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";

export type ScanLogLevel = "DEBUG" | "INFO" | "WARNING" | "ERROR";

export interface ScanLogEntry {
  job_id: number;
  level: ScanLogLevel;
  phase: string | null;
  message: string;
  details?: Record<string, unknown> | null;
  /** When it happened (ISO); the verb's time when absent. */
  at?: string;
}

/** At most this many entries per call: a runaway log cannot make one huge statement. */
export const MAX_LOG_BATCH = 500;

export const appendScanLogs = defineVerb<{ entries: ScanLogEntry[] }, { written: number }>(
  { scope: WRITE_DISCOVERY },
  async (s, { entries }) => {
    const batch = entries.slice(0, MAX_LOG_BATCH);
    if (batch.length === 0) return { written: 0 };
    const rows = batch.map((e) => ({
      job_id: e.job_id,
      level: e.level,
      phase: e.phase?.slice(0, 64) ?? null,
      message: e.message.slice(0, 2000),
      details: e.details ?? null,
      at: e.at ?? s.now.toISOString(),
    }));
    const written = await queryRows<{ id: number }>(
      s.tx,
      sql`
    insert into scan_logs (scan_job_id, timestamp, level, phase, message, details)
    select e.job_id, e.at, e.level, e.phase, e.message, e.details
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as e(job_id int, at timestamptz, level text, phase text, message text, details jsonb)
    where exists (select 1 from scan_jobs j where j.id = e.job_id)
    returning id`,
    );
    return { written: written.length };
  },
);
