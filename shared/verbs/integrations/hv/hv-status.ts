// GET /integrations/hv/{id}/status: the config's last sync and what its newest completed discover run
// imported (the run record keeps the counts, so this needs no walk over the inventory).
import { and, desc, eq } from "drizzle-orm";
import { hvDiscoverRuns } from "../../../db/schema/index.ts";
import { defineRead } from "../../verb.ts";
import { findConfig } from "../providers/read-configs.ts";
import { HV_NOT_FOUND } from "../providers/write-configs.ts";
import { READ_INTEGRATIONS } from "../scopes.ts";

export const hvStatus = defineRead({ scope: READ_INTEGRATIONS }, async (ctx, { id }: { id: number }) => {
  const row = await findConfig(ctx.db, "hv", id, HV_NOT_FOUND);
  const [run] = await ctx.db
    .select()
    .from(hvDiscoverRuns)
    .where(and(eq(hvDiscoverRuns.integration_id, id), eq(hvDiscoverRuns.status, "completed")))
    .orderBy(desc(hvDiscoverRuns.id))
    .limit(1);
  return {
    integration_id: row.id,
    last_sync_at: row.last_sync_at?.toISOString() ?? null,
    last_sync_status: row.last_sync_status,
    cluster_name: row.cluster_name ?? run?.cluster_name ?? null,
    nodes_count: run?.nodes_imported ?? 0,
    vms_count: run?.vms_imported ?? 0,
    cts_count: run?.cts_imported ?? 0,
    storage_count: run?.storage_imported ?? 0,
  };
});
