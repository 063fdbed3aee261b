// The Docker provider's sync (issue 14 item 4): reads the engine of a `docker` provider config (unix
// socket, or TCP with TLS, through OutboundHttp) before the transaction, then in one verb applies the
// snapshot with the discovery's Docker sync (applyDockerSnapshot: compute units, published-port services,
// networks, keyed by external_refs of source docker:<socket or tcp url>) and records the outcome on the
// config row. An engine that cannot be read changes no inventory row: only the config's
// last_sync_status "error" and its reason.
import { eq } from "drizzle-orm";
import { integrationConfigs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { DockerSnapshot } from "../../discovery/docker/docker-api.ts";
import { applyDockerSnapshot } from "../../discovery/docker/sync-docker.ts";
import { defineVerb } from "../../verb.ts";
import { outboundOf, vaultOf, type VerbContext } from "../../verb-context.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";
import { openCredential } from "../providers/credential.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import type { DockerEndpoint } from "./endpoint.ts";
import { dockerProviderClient } from "./provider-client.ts";

export interface DockerProviderSyncOut {
  ok: boolean;
  error: string | null;
  /** The inventory source the sync keyed its rows by (docker:<socket path> or docker:tcp://host:port). */
  source: string | null;
  containers: number;
  networks: number;
  services: number;
  created: number;
  updated: number;
  removed: number;
}

type Read = { config_url: string } & ({ endpoint: DockerEndpoint; snapshot: DockerSnapshot; error?: undefined } | { error: string });

const failed = (error: string): DockerProviderSyncOut => ({
  ok: false,
  error,
  source: null,
  containers: 0,
  networks: 0,
  services: 0,
  created: 0,
  updated: 0,
  removed: 0,
});

const networkTypes = (extra: Record<string, unknown>): string[] | null => {
  const types = extra.docker_network_types;
  return Array.isArray(types) && types.every((t) => typeof t === "string") ? (types as string[]) : null;
};

const syncVerb = defineVerb<{ id: number }, DockerProviderSyncOut, Read>(
  {
    scope: WRITE_INTEGRATIONS,
    async prepare(ctx, { id }) {
      const [row] = await ctx.db.select().from(integrationConfigs).where(eq(integrationConfigs.id, id));
      if (row?.type !== "docker") throw new ApiError("RESOURCE_NOT_FOUND", "Integration config not found");
      try {
        const policy = await readOutboundPolicy(ctx.db);
        const credential = await openCredential(vaultOf(ctx), row);
        const { endpoint, client } = dockerProviderClient(outboundOf(ctx), { ...row, credential, policy });
        return { config_url: row.config_url, endpoint, snapshot: await client.snapshot() };
      } catch (e) {
        // DockerError and OutboundError messages are operator-safe (never a credential or a body).
        return {
          config_url: row.config_url,
          error: `Docker Engine API at ${row.config_url} unavailable: ${e instanceof Error ? e.message : String(e)}`,
        };
      }
    },
  },
  async (s, { id }, read) => {
    const [row] = await s.tx.select().from(integrationConfigs).where(eq(integrationConfigs.id, id)).for("update");
    if (!row) throw new ApiError("RESOURCE_NOT_FOUND", "Integration config not found");
    const record = (status: "ok" | "error", error: string | null) =>
      s.tx
        .update(integrationConfigs)
        .set({ last_sync_at: s.now, last_sync_status: status, last_sync_error: error, updated_at: s.now })
        .where(eq(integrationConfigs.id, id));
    // An operator who repointed the config while the engine was read gets the new endpoint next time,
    // not the old engine's containers under the new one.
    if (row.config_url !== read.config_url)
      return failed("The config's URL changed during the sync; the next sync reads the new endpoint.");
    if (read.error !== undefined) {
      await record("error", read.error);
      return failed(read.error);
    }
    const summary = await applyDockerSnapshot(s, {
      socket_path: read.endpoint.key,
      snapshot: read.snapshot,
      network_types: networkTypes(row.extra_config),
      integration_config_id: id,
    });
    await record("ok", null);
    return {
      ok: true,
      error: null,
      source: summary.source,
      containers: summary.containers,
      networks: summary.networks,
      services: summary.services,
      created: summary.created.length,
      updated: summary.updated.length,
      removed: summary.removed.length,
    };
  },
);

/** Syncs the Docker provider config `configId` now (the worker when due; a manual sync route). */
export function syncDockerProvider(ctx: VerbContext, configId: number): Promise<DockerProviderSyncOut> {
  return syncVerb({ ctx, input: { id: configId } });
}
