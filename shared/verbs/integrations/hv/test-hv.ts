// POST /integrations/hv/{id}/test: the Proxmox VE version and the cluster's name with the stored config,
// as {ok, version, release, cluster_name, error}. A token that is not `user@realm!tokenid=secret` is the
// reference's 400 (hv-connection.ts); anything the hypervisor or the network answers is ok=false.
import type { OutboundPolicy } from "../../../domain/net/outbound-policy.ts";
import type { ConfigRow } from "../providers/provider-config.ts";
import { safeMessage } from "../providers/safe-message.ts";
import { findConfig } from "../providers/read-configs.ts";
import { HV_NOT_FOUND } from "../providers/write-configs.ts";
import { defineRead } from "../../verb.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import { type HvDeps, hvApiFor, hvDepsOf } from "./hv-connection.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";

export interface HvTestOut {
  ok: boolean;
  version: string | null;
  release: string | null;
  cluster_name: string | null;
  error: string | null;
}

/** Throws the 400 of a malformed token; answers everything else. */
export async function testHvConnection(deps: HvDeps & { policy: OutboundPolicy }, row: ConfigRow): Promise<HvTestOut> {
  const api = await hvApiFor(deps, row, deps.policy);
  try {
    const version = await api.version();
    const status = await api.clusterStatus();
    const cluster = status.find((e) => e.type === "cluster")?.name ?? null;
    return { ok: true, version: version.version, release: version.release, cluster_name: cluster, error: null };
  } catch (e) {
    return { ok: false, version: null, release: null, cluster_name: null, error: safeMessage(e) };
  }
}

export const testHv = defineRead({ scope: WRITE_INTEGRATIONS }, async (ctx, { id }: { id: number }) => {
  const row = await findConfig(ctx.db, "hv", id, HV_NOT_FOUND);
  return testHvConnection({ ...hvDepsOf(ctx), policy: await readOutboundPolicy(ctx.db) }, row);
});
