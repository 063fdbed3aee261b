// POST /discovery/docker/sync: queues a `docker` scan job for the sidecar (which owns the socket) through
// the jobs' one insert (events job_queued and job_update). A second sync of a socket while one is open
// answers 409 naming that job rather than queueing a twin.
import { and, inArray, sql } from "drizzle-orm";
import { scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb } from "../../verb.ts";
import { insertScanJob } from "../jobs/create-scan-jobs.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { DEFAULT_SOCKET_PATH } from "./docker-reads.ts";

export interface DockerSyncRequest {
  socket_path?: string | undefined;
  docker_network_types?: string[] | null | undefined;
}

export const startDockerSync = defineVerb({ scope: WRITE_DISCOVERY }, async (s, input: DockerSyncRequest | undefined) => {
  const socket_path = input?.socket_path ?? DEFAULT_SOCKET_PATH;
  // Serialises two requests for one socket, so both cannot miss each other's job.
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`docker-sync:${socket_path}`}))`);
  const [open] = await s.tx
    .select({ id: scanJobs.id, status: scanJobs.status })
    .from(scanJobs)
    .where(
      and(
        inArray(scanJobs.status, ["queued", "running"]),
        sql`${scanJobs.scan_types} @> '["docker"]'::jsonb`,
        sql`coalesce(${scanJobs.options}->>'docker_socket_path', ${DEFAULT_SOCKET_PATH}) = ${socket_path}`,
      ),
    )
    .limit(1);
  if (open) throw ApiError.conflict(`A Docker sync of ${socket_path} is already ${open.status} (job ${open.id}).`, { job_id: open.id });
  const job = await insertScanJob(s, {
    source_type: "manual",
    label: `Docker sync ${socket_path}`,
    scan_types: ["docker"],
    options: {
      docker_socket_path: socket_path,
      ...(input?.docker_network_types ? { docker_network_types: input.docker_network_types } : {}),
    },
  });
  return { status: "sync_started" as const, socket_path, job_id: job.id };
});
