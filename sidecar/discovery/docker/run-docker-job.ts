// The runner of a `docker` scan job (contracts D): reads the engine over its unix socket (the job's
// options.docker_socket_path) and hands the snapshot to the sync verb, which writes the inventory in one
// transaction. A socket that is missing or refuses fails the job with the reason in its log.
import { DockerError, dockerClient } from "../../../net/docker/docker-client.ts";
import { DEFAULT_SOCKET_PATH } from "../../../shared/verbs/discovery/docker/docker-reads.ts";
import { syncDocker } from "../../../shared/verbs/discovery/docker/sync-docker.ts";
import type { JobRun } from "../job-runner.ts";

export async function runDockerJob(run: JobRun): Promise<void> {
  const { ctx } = run;
  const options = run.job.options as { docker_socket_path?: string; docker_network_types?: string[] };
  const socketPath = options.docker_socket_path ?? DEFAULT_SOCKET_PATH;
  run.progress({ done: 0, total: 1, phase: "docker", message: `Reading the Docker Engine API at ${socketPath}` });
  run.log("INFO", "docker", `Reading the Docker Engine API at ${socketPath}`);
  let snapshot;
  try {
    snapshot = await dockerClient(socketPath, { signal: run.signal, timeoutMs: 15_000 }).snapshot();
  } catch (e) {
    if (run.signal.aborted) return;
    const code = e instanceof DockerError ? e.code : "EIO";
    const hint =
      code === "ENOENT"
        ? " (no such socket: is Docker installed, and the socket mounted into the sidecar?)"
        : code === "EACCES"
          ? " (permission denied: the sidecar's user needs the docker group)"
          : "";
    throw new Error(`Docker Engine API at ${socketPath} unavailable: ${(e as Error).message}${hint}`);
  }
  if (run.signal.aborted) return;
  run.log(
    "INFO",
    "docker",
    `Docker ${snapshot.version.Version} (API ${snapshot.version.ApiVersion}): ${snapshot.containers.length} containers, ${snapshot.networks.length} networks`,
  );
  const summary = await syncDocker({
    ctx,
    input: { socket_path: socketPath, snapshot, job_id: run.job.id, network_types: options.docker_network_types ?? null },
  });
  const message = `Synced ${summary.containers} containers (${summary.running} running), ${summary.services} with published ports, ${summary.networks} networks: ${summary.created.length} created, ${summary.updated.length} updated, ${summary.removed.length} marked removed`;
  run.log("INFO", "docker", message, { created: summary.created.length, updated: summary.updated.length, removed: summary.removed.length });
  run.progress({ done: 1, total: 1, phase: "docker", message });
}
