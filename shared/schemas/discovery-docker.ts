// [discovery] the Docker discovery: sync request, engine status, the networks it recorded
// (spec/catalogue.tsv, group discovery, plus our fields).
import * as v from "valibot";

/** An absolute path to the engine's unix socket; never relative, no ".." segments, within a socket path's length. */
export const SocketPath = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(107, "A unix socket path is at most 107 bytes."),
  v.check((p) => p.startsWith("/"), "Must be an absolute path (e.g. /var/run/docker.sock)."),
  v.check((p) => !p.split("/").includes(".."), "Must not contain '..' segments."),
  v.check((p) => !/[\0\n\r]/.test(p), "Must not contain control characters."),
);

const Driver = v.pipe(v.string(), v.regex(/^[a-z0-9_.-]{1,32}$/, "A Docker network driver name (bridge, overlay, macvlan ...)."));

export const DockerSyncBody = v.optional(
  v.strictObject({
    socket_path: v.optional(SocketPath),
    docker_network_types: v.optional(v.nullable(v.pipe(v.array(Driver), v.maxLength(10)))),
  }),
);

export const DockerStatusQuery = v.object({ socket_path: v.optional(SocketPath) });

export const DockerSyncStarted = v.object({ status: v.literal("sync_started"), socket_path: v.string(), job_id: v.number() });

export const DockerStatusOut = v.object({
  socket_path: v.string(),
  /** true when the last sync read the engine, false when it failed, null before any sync. */
  available: v.nullable(v.boolean()),
  docker_available: v.nullable(v.boolean()),
  engine_version: v.nullable(v.string()),
  api_version: v.nullable(v.string()),
  container_count: v.number(),
  running_count: v.number(),
  network_count: v.number(),
  service_count: v.number(),
  last_sync: v.nullable(v.string()),
  last_job: v.nullable(
    v.object({
      id: v.number(),
      status: v.string(),
      error_text: v.nullable(v.string()),
      created_at: v.nullable(v.string()),
      completed_at: v.nullable(v.string()),
    }),
  ),
});

export const DockerNetworkOut = v.object({
  id: v.number(),
  name: v.string(),
  docker_network_id: v.string(),
  docker_driver: v.nullable(v.string()),
  cidr: v.nullable(v.string()),
  gateway: v.nullable(v.string()),
  socket_path: v.string(),
  /** When the engine stopped reporting it (the row is kept), or null. */
  removed_at: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
});
export const DockerNetworkList = v.array(DockerNetworkOut);
