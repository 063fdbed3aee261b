// [discovery] the Docker discovery: /discovery/docker/status, /docker/sync (queues a docker job the
// sidecar runs against the engine's unix socket) and /docker/networks (what the syncs recorded).
import type { Hono } from "hono";
import {
  DockerNetworkList,
  DockerStatusOut,
  DockerStatusQuery,
  DockerSyncBody,
  DockerSyncStarted,
} from "../../../shared/schemas/discovery-docker.ts";
import { dockerNetworks, dockerStatus } from "../../../shared/verbs/discovery/docker/docker-reads.ts";
import { startDockerSync } from "../../../shared/verbs/discovery/docker/start-docker-sync.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/discovery/docker";

export function dockerRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${BASE}/status`,
      tag: "discovery",
      scope: dockerStatus.scope,
      query: DockerStatusQuery,
      response: { schema: DockerStatusOut },
      summary: "The Docker discovery's status and last sync",
      description:
        "For `socket_path` (default /var/run/docker.sock): whether the last docker job read the engine (`available`, null before any), the engine and API versions it reported, how many containers (running), networks and published-port services the inventory holds from it now, `last_sync` and the last job.",
    },
    async (c, { query, reply }) => reply(await dockerStatus({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/sync`,
      tag: "discovery",
      scope: startDockerSync.scope,
      body: DockerSyncBody,
      response: { schema: DockerSyncStarted },
      summary: "Sync containers, networks and published ports from the Docker Engine API",
      description:
        "Queues a scan job of type `docker` that the sidecar runs: it reads GET /version, /containers/json?all=1, /containers/{id}/json and /networks over the unix socket (`socket_path`, an absolute path, default /var/run/docker.sock) and, in one audited transaction, upserts a compute unit (kind container) per container, a service per container publishing ports, and a network per Docker network with an address range (filtered by `docker_network_types` when given), keyed by external_refs (source `docker:<socket path>`, the Docker id). Containers gone from the engine are marked `removed`, not deleted. 409 while a sync of that socket is queued or running.",
      errors: [409],
    },
    async (c, { body, reply }) => reply(await startDockerSync({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/networks`,
      tag: "discovery",
      scope: dockerNetworks.scope,
      response: { schema: DockerNetworkList },
      summary: "The networks Docker syncs recorded",
      description:
        "Every inventory network a Docker sync created or updates, by name: its Docker id and driver, cidr, gateway, the socket it came from, and `removed_at` once the engine stopped reporting it.",
    },
    async (c, { reply }) => reply(await dockerNetworks({ ctx: verbContext(c) })),
  );
}
