// Jobs left running by a sidecar that died: a running job whose updated_at (refreshed by every progress
// report, at least every heartbeatMs while the worker holds it) is older than `stale_ms` is failed with
// reason "interrupted". Agent jobs are included: a dispatched job whose agent never reports back ends
// the same way instead of staying open forever.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { emitJobUpdate } from "./job-events.ts";
import { rowOf } from "./row-of.ts";

export const recoverScanJobs = defineVerb<{ stale_ms: number }, { recovered: number[] }>(
  { scope: WRITE_DISCOVERY },
  async (s, { stale_ms }) => {
    const now = s.now.toISOString();
    const rows = await queryRows<Record<string, unknown>>(
      s.tx,
      sql`
    update scan_jobs set status = 'failed', completed_at = ${now}::timestamptz, updated_at = ${now}::timestamptz,
      error_reason = 'interrupted', error_text = 'The scan stopped reporting progress (its worker or agent went away).',
      progress_phase = 'failed', progress_message = 'Interrupted'
    where status = 'running' and updated_at < ${now}::timestamptz - make_interval(secs => ${stale_ms / 1000})
    returning *`,
    );
    const recovered = rows.map(rowOf);
    for (const row of recovered) emitJobUpdate(s, row);
    return { recovered: recovered.map((r) => r.id) };
  },
);
