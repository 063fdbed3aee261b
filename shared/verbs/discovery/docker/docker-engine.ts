// The Docker Engine API calls the discovery and the Docker provider make, over any transport: the
// transport answers GET <path> with a status and a body, and this file turns that into values or a
// DockerError. net/docker/docker-client.ts gives it node:http on a unix socket (the discovery scan);
// shared/verbs/integrations/docker/provider-client.ts gives it OutboundHttp (unix socket, or TCP with
// TLS), so both read the engine the same way. Paths are unversioned so any engine answers with its own
// API version (the shapes read are stable since v1.43, docker-api.ts).
import type { DockerContainerInspect, DockerContainerSummary, DockerNetwork, DockerSnapshot, DockerVersion } from "./docker-api.ts";

export class DockerError extends Error {
  /** The HTTP status, or a system error code (ENOENT, EACCES, ECONNREFUSED, ETIMEDOUT, ABORTED, ...). */
  readonly code: string | number;
  constructor(code: string | number, message: string) {
    super(message);
    this.code = code;
  }
}

/** One GET answered: the HTTP status and the body as text. Failures to get an answer throw a DockerError. */
export type DockerTransport = (path: string) => Promise<{ status: number; text: string }>;

export interface DockerClient {
  version(): Promise<DockerVersion>;
  containers(): Promise<DockerContainerSummary[]>;
  inspect(id: string): Promise<DockerContainerInspect>;
  networks(): Promise<DockerNetwork[]>;
  /** Version, every container (with its inspect), every network. */
  snapshot(): Promise<DockerSnapshot>;
}

/** The value of one answer, or the DockerError it stands for. */
function answer<T>(path: string, status: number, text: string): T {
  if (status < 200 || status >= 300) {
    // Only the engine's own error message is repeated: an endpoint that is not Docker's must not have
    // its answer copied into a job log or a sync error.
    let message = "not a Docker Engine API error";
    try {
      message = String((JSON.parse(text) as { message?: unknown }).message ?? message).slice(0, 300);
    } catch {}
    throw new DockerError(status, `GET ${path}: HTTP ${status}: ${message}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new DockerError("EPROTO", `GET ${path}: the answer is not JSON (is this a Docker Engine API endpoint?)`);
  }
}

export function dockerEngine(transport: DockerTransport): DockerClient {
  const get = async <T>(path: string): Promise<T> => {
    const { status, text } = await transport(path);
    return answer<T>(path, status, text);
  };
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
