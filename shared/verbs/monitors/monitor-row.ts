// Loading one monitor row, 404 "Monitor not found" naming the id when there is none; the monitor as a kind
// of the resource engine's row steps (its version, its audit view), which its PATCH writes through.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { monitors } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { RowKind } from "../resources/update-row.ts";

export type MonitorRow = typeof monitors.$inferSelect;

export async function findMonitor(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<MonitorRow | undefined> {
  const query = db.select().from(monitors).where(eq(monitors.id, id));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  return row;
}

export async function requireMonitor(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<MonitorRow> {
  const row = await findMonitor(db, id, opts);
  if (!row) throw ApiError.notFound("Monitor", id);
  return row;
}

/** The version a client sends back in If-Match (and is given in ETag): updated_at in epoch ms (docs/adr/0105). */
export const monitorVersion = (row: { updated_at: Date }) => row.updated_at.getTime();

/** The audit view of a row: what the API shows (masks, never the sealed secrets), without the runner's bookkeeping. */
export function auditView(r: MonitorRow) {
  const { secret_config, push_token_hash, claimed_by: _c, claimed_at: _a, last_msg: _m, last_latency_ms: _l, ...rest } = r;
  return { ...rest, secrets_set: secret_config != null, ...(push_token_hash != null ? { push_token_set: true } : {}) };
}

/** Monitors for the engine's row steps: audited as monitors.<what> (category monitors); events are the monitor verbs' own (notify.ts). */
export const monitorKind: RowKind<typeof monitors> = {
  label: "Monitor",
  entityType: "monitor",
  auditPrefix: "monitors",
  auditCategory: "monitors",
  table: monitors,
  columns: { id: monitors.id },
  channels: [],
  versionOf: monitorVersion,
  auditView,
};
