// The Docker sync (issue 13 item 5): one transaction that upserts the engine's networks, containers
// (compute units, kind container) and published ports (services) keyed by external_refs
// (source "docker:<socket path>", external_id = the Docker id), links containers to their networks,
// and marks what disappeared from the engine (compute units "removed", services "stopped",
// external_refs.attributes.removed_at) without deleting anything an operator may have edited.
// One audit entry lists what was created, changed and marked; each row changed gets its inventory event.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { canonicalJson } from "../../../audit/canonical.ts";
import { appSettings, computeUnits, externalRefs, networkMembers, networks, services } from "../../../db/schema/index.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { uniqueSlug, slugify } from "../../inventory/services/slug.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import type { DockerSnapshot } from "./docker-api.ts";
import { dockerInventory } from "./docker-inventory.ts";

export const dockerSource = (socketPath: string) => `docker:${socketPath}`;
/** app_settings key of the last sync of a socket (what GET /discovery/docker/status answers). */
export const dockerSyncKey = (socketPath: string) => `discovery_docker_sync:${socketPath}`;

export interface DockerSyncInput {
  socket_path: string;
  snapshot: DockerSnapshot;
  job_id?: number | null;
  /** The Docker provider config (integration_configs) the sync ran for, when it was not a scan job. */
  integration_config_id?: number | null;
  /** Docker network drivers to record (bridge, overlay, macvlan ...); null or empty = every one with a range. */
  network_types?: string[] | null;
}

type EntityType = "compute_unit" | "service" | "network";
interface Change {
  entity_type: EntityType;
  id: number;
  name: string;
  fields?: Record<string, { before: unknown; after: unknown }>;
}

export interface DockerSyncSummary {
  source: string;
  engine_version: string;
  api_version: string;
  containers: number;
  running: number;
  networks: number;
  services: number;
  created: Change[];
  updated: Change[];
  removed: Change[];
}

type RefRow = typeof externalRefs.$inferSelect;
const TABLES: Record<EntityType, { table: PgTable; id: typeof computeUnits.id | typeof services.id | typeof networks.id }> = {
  compute_unit: { table: computeUnits, id: computeUnits.id },
  service: { table: services, id: services.id },
  network: { table: networks, id: networks.id },
};

/** The fields whose value differs (jsonb answers keys in its own order: compared canonically). */
function changedFields(
  before: Record<string, unknown>,
  values: Record<string, unknown>,
): Record<string, { before: unknown; after: unknown }> {
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const [k, after] of Object.entries(values))
    if (canonicalJson(before[k] ?? null) !== canonicalJson(after ?? null)) out[k] = { before: before[k] ?? null, after };
  return out;
}

/**
 * The sync's body in the caller's transaction: the discovery's docker job runs it as syncDocker, the
 * Docker provider (shared/verbs/integrations/docker/sync-provider.ts) inside its own verb, so a scan of
 * a socket and the provider of that socket update the same rows.
 */
export async function applyDockerSnapshot(s: VerbScope, input: DockerSyncInput): Promise<DockerSyncSummary> {
  const source = dockerSource(input.socket_path);
  const { networks: nets, containers } = dockerInventory(input.snapshot, input.network_types ?? null);
  // Two syncs of one socket would race on the same refs: the second waits for the first to commit.
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${source}))`);
  const refs = new Map<string, RefRow>(
    (await s.tx.select().from(externalRefs).where(eq(externalRefs.source, source))).map((r) => [r.external_id, r]),
  );
  const summary: DockerSyncSummary = {
    source,
    engine_version: input.snapshot.version.Version,
    api_version: input.snapshot.version.ApiVersion,
    containers: containers.length,
    running: containers.filter((c) => c.values.status === "running").length,
    networks: nets.length,
    services: containers.filter((c) => c.service).length,
    created: [],
    updated: [],
    removed: [],
  };
  const seen = new Set<string>();
  const event = (type: EntityType, action: string, id: number) => {
    s.emit("inventory", { entity: type, action, id });
    s.emit("topology", { entity: type, action, id });
  };

  /** Inserts or updates the row an external id names; answers its inventory id. */
  async function upsert(
    type: EntityType,
    externalId: string,
    values: Record<string, unknown>,
    attributes: Record<string, unknown>,
    onCreate: () => Promise<Record<string, unknown>> = async () => ({}),
  ): Promise<number> {
    seen.add(externalId);
    const { table, id: idCol } = TABLES[type];
    const ref = refs.get(externalId);
    const [before] =
      ref && ref.entity_type === type
        ? ((await s.tx.select().from(table).where(eq(idCol, ref.entity_id)).for("update")) as Record<string, unknown>[])
        : [];
    let id: number;
    if (before) {
      id = before.id as number;
      const fields = changedFields(before, values);
      if (Object.keys(fields).length > 0) {
        await s.tx
          .update(table)
          .set({ ...values, updated_at: s.now, version: sql`version + 1` } as never)
          .where(eq(idCol, id));
        summary.updated.push({ entity_type: type, id, name: String(values.name ?? before.name), fields });
        event(type, "update", id);
      }
    } else {
      const [row] = (await s.tx
        .insert(table)
        .values({ ...values, ...(await onCreate()) } as never)
        .returning({ id: idCol })) as { id: number }[];
      id = row!.id;
      summary.created.push({ entity_type: type, id, name: String(values.name) });
      event(type, "create", id);
    }
    await s.tx
      .insert(externalRefs)
      .values({ source, external_id: externalId, entity_type: type, entity_id: id, attributes, last_seen_at: s.now })
      .onConflictDoUpdate({
        target: [externalRefs.source, externalRefs.external_id],
        set: { entity_type: type, entity_id: id, attributes, last_seen_at: s.now, updated_at: s.now },
      });
    return id;
  }

  const networkIds = new Map<string, number>();
  for (const n of nets) networkIds.set(n.external_id, await upsert("network", n.external_id, n.values, n.attributes));

  for (const c of containers) {
    const computeId = await upsert("compute_unit", c.external_id, c.values, c.attributes);
    // Membership of the container in the recorded Docker networks (others it is on are not ours to add).
    const ours = [...networkIds.values()];
    const current = c.endpoints
      .filter((e) => networkIds.has(e.network_id))
      .map((e) => ({ network_id: networkIds.get(e.network_id)!, compute_id: computeId, ip_address: e.ip_address }));
    if (ours.length > 0) {
      const keep = new Set(current.map((m) => m.network_id));
      const stale = ours.filter((id) => !keep.has(id));
      if (stale.length > 0)
        await s.tx.delete(networkMembers).where(and(eq(networkMembers.compute_id, computeId), inArray(networkMembers.network_id, stale)));
    }
    if (current.length > 0)
      await s.tx
        .insert(networkMembers)
        .values(current)
        .onConflictDoUpdate({
          target: [networkMembers.network_id, networkMembers.compute_id],
          set: { ip_address: sql`excluded.ip_address` },
        });
    if (c.service) {
      const svc = c.service;
      await upsert("service", svc.external_id, { ...svc.values, compute_id: computeId }, { container_id: c.external_id }, async () => ({
        slug: await uniqueSlug(s.tx, slugify(svc.values.name)),
      }));
    }
  }

  await markRemoved(s, source, refs, seen, summary, event);

  await s.tx
    .insert(appSettings)
    .values({ key: dockerSyncKey(input.socket_path), value: syncRecord(input, summary, s.now), updated_at: s.now })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: syncRecord(input, summary, s.now), updated_at: s.now } });
  s.audit({
    action: "discovery.docker.sync",
    category: "inventory",
    entity_type: "docker_engine",
    entity_id: input.socket_path,
    diff: {
      source,
      job_id: input.job_id ?? null,
      integration_config_id: input.integration_config_id ?? null,
      created: summary.created,
      updated: summary.updated,
      removed: summary.removed,
    },
  });
  return summary;
}

export const syncDocker = defineVerb({ scope: WRITE_DISCOVERY }, applyDockerSnapshot);

function syncRecord(input: DockerSyncInput, summary: DockerSyncSummary, now: Date) {
  return {
    socket_path: input.socket_path,
    job_id: input.job_id ?? null,
    at: now.toISOString(),
    engine_version: summary.engine_version,
    api_version: summary.api_version,
    containers: summary.containers,
    running: summary.running,
    networks: summary.networks,
    services: summary.services,
    created: summary.created.length,
    updated: summary.updated.length,
    removed: summary.removed.length,
  };
}

/** Marks the rows of refs this sync did not see: once, keeping the row and its edits. */
async function markRemoved(
  s: VerbScope,
  source: string,
  refs: Map<string, RefRow>,
  seen: Set<string>,
  summary: DockerSyncSummary,
  event: (t: EntityType, a: string, id: number) => void,
) {
  for (const ref of refs.values()) {
    if (seen.has(ref.external_id) || ref.attributes.removed_at) continue;
    const type = ref.entity_type as EntityType;
    let name: string | undefined;
    if (type === "compute_unit") {
      const [row] = await s.tx
        .update(computeUnits)
        .set({ status: "removed", updated_at: s.now, version: sql`${computeUnits.version} + 1` })
        .where(eq(computeUnits.id, ref.entity_id))
        .returning({ name: computeUnits.name });
      name = row?.name;
    } else if (type === "service") {
      const [row] = await s.tx
        .update(services)
        .set({ status: "stopped", updated_at: s.now, version: sql`${services.version} + 1` })
        .where(eq(services.id, ref.entity_id))
        .returning({ name: services.name });
      name = row?.name;
    } else if (type === "network") {
      const [row] = await s.tx.select({ name: networks.name }).from(networks).where(eq(networks.id, ref.entity_id));
      name = row?.name;
    }
    await s.tx
      .update(externalRefs)
      .set({ attributes: { ...ref.attributes, removed_at: s.now.toISOString() }, updated_at: s.now })
      .where(and(eq(externalRefs.source, source), eq(externalRefs.external_id, ref.external_id)));
    if (name === undefined) continue; // the operator deleted the row already
    summary.removed.push({ entity_type: type, id: ref.entity_id, name });
    event(type, "update", ref.entity_id);
  }
}
