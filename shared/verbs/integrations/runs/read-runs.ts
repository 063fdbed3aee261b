// The hypervisor discover runs as GET /discovery/proxmox-runs answers them: newest first, optionally of
// one provider config, at most `limit`; and one run by id.
import { desc, eq } from "drizzle-orm";
import { hvDiscoverRuns } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { idInRange } from "../../../schemas/fields.ts";
import { defineRead } from "../../verb.ts";
import { presentHvRun } from "../hv/present-run.ts";
import { READ_INTEGRATIONS } from "../scopes.ts";

export const listHvRuns = defineRead(
  { scope: READ_INTEGRATIONS },
  async (ctx, { integration_id, limit }: { integration_id?: number | undefined; limit: number }) => {
    const rows = await ctx.db
      .select()
      .from(hvDiscoverRuns)
      .where(integration_id === undefined ? undefined : eq(hvDiscoverRuns.integration_id, integration_id))
      .orderBy(desc(hvDiscoverRuns.id))
      .limit(limit);
    return rows.map(presentHvRun);
  },
);

export const getHvRun = defineRead({ scope: READ_INTEGRATIONS }, async (ctx, { id }: { id: number }) => {
  const [row] = idInRange(id) ? await ctx.db.select().from(hvDiscoverRuns).where(eq(hvDiscoverRuns.id, id)) : [];
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", "Proxmox discover run not found");
  return presentHvRun(row);
});
