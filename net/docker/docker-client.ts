// The discovery's Docker Engine API client over its unix socket: node:http with socketPath as the
// transport of shared/verbs/discovery/docker/docker-engine.ts (which the Docker provider also uses,
// over OutboundHttp). GET only, each request bounded in time and size and stopped by the caller's AbortSignal.
import { request } from "node:http";
import { type DockerClient, DockerError, dockerEngine } from "../../shared/verbs/discovery/docker/docker-engine.ts";

export { type DockerClient, DockerError } from "../../shared/verbs/discovery/docker/docker-engine.ts";

export interface DockerClientOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Largest answer accepted, in bytes (a runaway answer must not fill the sidecar's memory). */
  maxBytes?: number;
}

export function dockerClient(socketPath: string, options: DockerClientOptions = {}): DockerClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;

  return dockerEngine(
    (path) =>
      new Promise((resolve, reject) => {
        if (options.signal?.aborted) return reject(new DockerError("ABORTED", "aborted"));
        const req = request(
          {
            socketPath,
            path,
            method: "GET",
            headers: { accept: "application/json", host: "docker" },
            signal: options.signal,
            timeout: timeoutMs,
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on("data", (chunk: Buffer) => {
              size += chunk.length;
              if (size > maxBytes) return req.destroy(new DockerError("E2BIG", `the answer to ${path} exceeds ${maxBytes} bytes`));
              chunks.push(chunk);
            });
            res.on("error", (e) => reject(e));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
          },
        );
        req.on("timeout", () => req.destroy(new DockerError("ETIMEDOUT", `no answer to GET ${path} in ${timeoutMs} ms`)));
        req.on("error", (e: Error & { code?: string }) => {
          if (e instanceof DockerError) return reject(e);
          if (e.name === "AbortError") return reject(new DockerError("ABORTED", "aborted"));
          reject(new DockerError(e.code ?? "EIO", `Docker socket ${socketPath}: ${e.message}`));
        });
        req.end();
      }),
  );
}
