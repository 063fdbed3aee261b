// A Docker Engine API client over its unix socket (node:http with socketPath): GET only, each request
// bounded in time and size and stopped by the caller's AbortSignal. Paths are unversioned so any engine
// answers with its own API version (the shapes read are stable since v1.43, docker-api.ts).
import { request } from "node:http";
import type { DockerContainerInspect, DockerContainerSummary, DockerNetwork, DockerSnapshot, DockerVersion } from "../../shared/services/discovery/docker/docker-api.ts";

export interface DockerClientOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Largest answer accepted, in bytes (a runaway answer must not fill the sidecar's memory). */
  maxBytes?: number;
}

export class DockerError extends Error {
  /** The HTTP status, or a system error code (ENOENT, EACCES, ECONNREFUSED, ETIMEDOUT, ABORTED). */
  readonly code: string | number;
  constructor(code: string | number, message: string) {
    super(message);
    this.code = code;
  }
}

export interface DockerClient {
  version(): Promise<DockerVersion>;
  containers(): Promise<DockerContainerSummary[]>;
  inspect(id: string): Promise<DockerContainerInspect>;
  networks(): Promise<DockerNetwork[]>;
  /** Version, every container (with its inspect), every network. */
  snapshot(): Promise<DockerSnapshot>;
}

export function dockerClient(socketPath: string, options: DockerClientOptions = {}): DockerClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;

  const get = <T>(path: string): Promise<T> =>
    new Promise((resolve, reject) => {
      if (options.signal?.aborted) return reject(new DockerError("ABORTED", "aborted"));
      const req = request({ socketPath, path, method: "GET", headers: { accept: "application/json", host: "docker" }, signal: options.signal, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return req.destroy(new DockerError("E2BIG", `the answer to ${path} exceeds ${maxBytes} bytes`));
          chunks.push(chunk);
        });
        res.on("error", (e) => reject(e));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            // Only the engine's own error message is repeated: a socket that is not Docker's must not
            // have its answer copied into a job log.
            let message = "not a Docker Engine API error";
            try {
              message = String((JSON.parse(text) as { message?: unknown }).message ?? message).slice(0, 300);
            } catch {}
            return reject(new DockerError(status, `GET ${path}: HTTP ${status}: ${message}`));
          }
          try {
            resolve(JSON.parse(text) as T);
          } catch {
            reject(new DockerError("EPROTO", `GET ${path}: the answer is not JSON (is this a Docker Engine API socket?)`));
          }
        });
      });
      req.on("timeout", () => req.destroy(new DockerError("ETIMEDOUT", `no answer to GET ${path} in ${timeoutMs} ms`)));
      req.on("error", (e: Error & { code?: string }) => {
        if (e instanceof DockerError) return reject(e);
        if (e.name === "AbortError") return reject(new DockerError("ABORTED", "aborted"));
        reject(new DockerError(e.code ?? "EIO", `Docker socket ${socketPath}: ${e.message}`));
      });
      req.end();
    });

  const client: DockerClient = {
    version: () => get<DockerVersion>("/version"),
    containers: () => get<DockerContainerSummary[]>("/containers/json?all=1"),
    inspect: (id) => get<DockerContainerInspect>(`/containers/${encodeURIComponent(id)}/json`),
    networks: () => get<DockerNetwork[]>("/networks"),
    async snapshot() {
      const version = await client.version();
      const [summaries, networks] = await Promise.all([client.containers(), client.networks()]);
      // A container removed between the list and its inspect answers 404: keep its summary only.
      const containers = [];
      for (const summary of summaries) {
        const inspect = await client.inspect(summary.Id).catch((e: unknown) => {
          if (e instanceof DockerError && e.code === 404) return null;
          throw e;
        });
        containers.push({ summary, inspect });
      }
      return { version, containers, networks };
    },
  };
  return client;
}
