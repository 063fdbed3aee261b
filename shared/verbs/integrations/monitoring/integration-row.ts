// A monitoring integration row as the API answers it (IntegrationRead plus ours: api_key_set,
// next_sync_at, timestamps) and the lookups every integration verb starts with.
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { integrationMonitors, integrations } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";

export type IntegrationRow = typeof integrations.$inferSelect;

export const INTEGRATION_NOT_FOUND = "Integration not found";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentIntegration(row: IntegrationRow, monitorCount: number) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    base_url: row.base_url ?? "",
    slug: row.slug,
    sync_interval_s: row.sync_interval_s,
    enabled: row.enabled,
    last_synced_at: iso(row.last_synced_at),
    sync_status: row.sync_status,
    sync_error: row.sync_error,
    monitor_count: monitorCount,
    api_key_set: row.api_key !== null,
    next_sync_at: iso(row.next_sync_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
export type IntegrationShape = ReturnType<typeof presentIntegration>;

/** How many monitors each of `ids` has (one query for a page). */
export async function monitorCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: integrationMonitors.integration_id, n: sql<number>`count(*)::int` })
    .from(integrationMonitors)
    .where(inArray(integrationMonitors.integration_id, ids))
    .groupBy(integrationMonitors.integration_id);
  return new Map(rows.map((r) => [r.id, r.n]));
}

export async function presentIntegrations(db: Db, rows: IntegrationRow[]): Promise<IntegrationShape[]> {
  const counts = await monitorCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentIntegration(r, counts.get(r.id) ?? 0));
}

/** The row of `id` (locked for update when `lock`), or 404 "Integration not found". */
export async function findIntegration(db: Db, id: number, lock = false): Promise<IntegrationRow> {
  const query = db.select().from(integrations).where(eq(integrations.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", INTEGRATION_NOT_FOUND);
  return row;
}
