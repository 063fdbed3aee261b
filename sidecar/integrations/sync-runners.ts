// What the worker runs for each kind of due row: the monitoring integrations' sync (Uptime Kuma, native),
// the hypervisor discover (trigger "scheduled", recorded as a run at /discovery/proxmox-runs) and the
// Docker provider's sync. Each records its own outcome on its row; the answer here is for the log.
import { syncDockerProvider } from "../../shared/verbs/integrations/docker/sync-provider.ts";
import { discoverHv } from "../../shared/verbs/integrations/hv/discover.ts";
import { syncMonitoringIntegration } from "../../shared/verbs/integrations/monitoring/sync-integration.ts";
import type { DueKind } from "../../shared/verbs/integrations/scheduled/claim-due.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";

/** A runner gets the worker's system context, which carries the vault and the outbound client. */
export type SyncRunner = (ctx: VerbContext, id: number) => Promise<{ ok: boolean; error: string | null }>;

export const defaultSyncRunners: Record<DueKind, SyncRunner> = {
  monitoring: syncMonitoringIntegration,
  hv: async (ctx, id) => {
    const out = await discoverHv(ctx, id, "scheduled", "scheduler");
    return { ok: out.ok, error: out.errors.length > 0 ? out.errors.join("; ") : null };
  },
  docker: syncDockerProvider,
};
