// A scheduled sync that threw (rather than answering its own error) leaves the reason on its row, so
// GET /integrations and the provider config show why the last sync failed; the worker goes on.
import { eq } from "drizzle-orm";
import { integrationConfigs, integrations } from "../../../db/schema/index.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import type { DueKind } from "./claim-due.ts";

/** Long enough for an operator to act on, short enough for a list row. */
const MAX_ERROR = 500;

export const recordSyncFailure = defineVerb<{ kind: DueKind; id: number; error: string }, void>(
  { scope: WRITE_INTEGRATIONS },
  async (s, { kind, id, error }) => {
    const text = error.slice(0, MAX_ERROR);
    if (kind === "monitoring")
      await s.tx
        .update(integrations)
        .set({ sync_status: "error", sync_error: text, last_synced_at: s.now, updated_at: s.now })
        .where(eq(integrations.id, id));
    else
      await s.tx
        .update(integrationConfigs)
        .set({ last_sync_status: "error", last_sync_error: text, last_sync_at: s.now, updated_at: s.now })
        .where(eq(integrationConfigs.id, id));
  },
);
