// What the worker runs for each kind of due row: the monitoring integrations' sync (Uptime Kuma, native),
// the hypervisor discover (trigger "scheduled", recorded as a run at /discovery/proxmox-runs) and the
// Docker provider's sync. Each records its own outcome on its row; the answer here is for the log.
import type { OutboundHttp } from "../../shared/net/outbound.ts";
import { syncDockerProvider } from "../../shared/verbs/integrations/docker/sync-provider.ts";
import { discoverHv } from "../../shared/verbs/integrations/hv/discover.ts";
import { syncMonitoringIntegration } from "../../shared/verbs/integrations/monitoring/sync-integration.ts";
import type { DueKind } from "../../shared/verbs/integrations/scheduled/claim-due.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";
import type { Vault } from "../../shared/vault/vault.ts";

export interface SyncDeps {
  outbound: OutboundHttp;
  vault: Vault;
}

export type SyncRunner = (ctx: VerbContext, deps: SyncDeps, id: number) => Promise<{ ok: boolean; error: string | null }>;

export const defaultSyncRunners: Record<DueKind, SyncRunner> = {
  monitoring: (ctx, deps, id) => syncMonitoringIntegration(ctx, deps.outbound, deps.vault, id),
  hv: async (ctx, deps, id) => {
    const out = await discoverHv(ctx, deps, id, "scheduled", "scheduler");
    return { ok: out.ok, error: out.errors.length > 0 ? out.errors.join("; ") : null };
  },
  docker: syncDockerProvider,
};
