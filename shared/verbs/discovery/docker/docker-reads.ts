// The Docker discovery's reads: the engine status (what the last sync of a socket recorded, and the
// last docker job) and the networks it recorded. Neither touches the socket: the sidecar does that.
import { and, desc, eq, like, sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { appSettings, externalRefs, networks, scanJobs } from "../../../db/schema/index.ts";
import { iso } from "../../resources/present.ts";
import { defineRead } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";
import { dockerSource, dockerSyncKey } from "./sync-docker.ts";

export const DEFAULT_SOCKET_PATH = "/var/run/docker.sock";

interface SyncRecord {
  at: string;
  engine_version: string;
  api_version: string;
}

export const dockerStatus = defineRead({ scope: READ_DISCOVERY }, async (ctx, { socket_path }: { socket_path?: string | undefined }) => {
  const path = socket_path ?? DEFAULT_SOCKET_PATH;
  const [setting] = await ctx.db
    .select()
    .from(appSettings)
    .where(eq(appSettings.key, dockerSyncKey(path)));
  const last = setting?.value as SyncRecord | undefined;
  const [job] = await ctx.db
    .select()
    .from(scanJobs)
    .where(
      and(
        sql`${scanJobs.scan_types} @> '["docker"]'::jsonb`,
        sql`coalesce(${scanJobs.options}->>'docker_socket_path', ${DEFAULT_SOCKET_PATH}) = ${path}`,
      ),
    )
    .orderBy(desc(scanJobs.id))
    .limit(1);
  // What the inventory holds from this engine now (rows it stopped reporting are not counted).
  const [counts] = await queryRows<{ containers: number; running: number; networks: number; services: number }>(
    ctx.db,
    sql`
    select count(*) filter (where r.entity_type = 'compute_unit')::int as containers,
           count(*) filter (where r.entity_type = 'compute_unit' and c.status = 'running')::int as running,
           count(*) filter (where r.entity_type = 'network')::int as networks,
           count(*) filter (where r.entity_type = 'service')::int as services
      from ${externalRefs} r left join compute_units c on r.entity_type = 'compute_unit' and c.id = r.entity_id
     where r.source = ${dockerSource(path)} and not (r.attributes ? 'removed_at')`,
  );
  const finished = job && (job.status === "completed" || job.status === "failed") ? job.status === "completed" : null;
  const available = finished ?? (last ? true : null);
  return {
    socket_path: path,
    available,
    docker_available: available,
    engine_version: last?.engine_version ?? null,
    api_version: last?.api_version ?? null,
    container_count: counts?.containers ?? 0,
    running_count: counts?.running ?? 0,
    network_count: counts?.networks ?? 0,
    service_count: counts?.services ?? 0,
    last_sync: last?.at ?? null,
    last_job: job
      ? { id: job.id, status: job.status, error_text: job.error_text, created_at: iso(job.created_at), completed_at: iso(job.completed_at) }
      : null,
  };
});

export const dockerNetworks = defineRead({ scope: READ_DISCOVERY }, async (ctx) => {
  const rows = await ctx.db
    .select({ ref: externalRefs, net: networks })
    .from(externalRefs)
    .innerJoin(networks, eq(networks.id, externalRefs.entity_id))
    .where(and(eq(externalRefs.entity_type, "network"), like(externalRefs.source, "docker:%")))
    .orderBy(networks.name, networks.id);
  return rows.map(({ ref, net }) => ({
    id: net.id,
    name: net.name,
    docker_network_id: ref.external_id,
    docker_driver: (ref.attributes.docker_driver as string | undefined) ?? null,
    cidr: net.cidr,
    gateway: net.gateway,
    socket_path: ref.source.slice("docker:".length),
    removed_at: (ref.attributes.removed_at as string | undefined) ?? null,
    created_at: iso(net.created_at)!,
    updated_at: iso(net.updated_at)!,
  }));
});
