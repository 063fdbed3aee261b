// A fake Docker Engine API: an HTTP server on a unix socket in a temp dir that replays the recorded
// answers of tests/fixtures/docker/ (GET /version, /containers/json, /containers/{id}/json, /networks,
// with or without a /v1.xx prefix). A test edits `state` to make the engine change between syncs.
// startFakeDockerTcp serves the same answers on a 127.0.0.x port, over TLS or plain (the Docker provider's tcp://).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  DockerContainerInspect,
  DockerContainerSummary,
  DockerNetwork,
  DockerVersion,
} from "../../shared/verbs/discovery/docker/docker-api.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures/docker");
const read = <T>(name: string): T => JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as T;

export interface FakeDockerState {
  version: DockerVersion;
  containers: DockerContainerSummary[];
  inspects: Map<string, DockerContainerInspect>;
  networks: DockerNetwork[];
}

export interface FakeDocker {
  socketPath: string;
  state: FakeDockerState;
  /** Paths asked, in order. */
  requests: string[];
  close(): Promise<void>;
}

export function recordedDockerState(): FakeDockerState {
  const inspects = new Map<string, DockerContainerInspect>();
  for (const f of readdirSync(FIXTURES).filter((n) => n.startsWith("container-"))) {
    const c = read<DockerContainerInspect>(f);
    inspects.set(c.Id, c);
  }
  return { version: read("version.json"), containers: read("containers.json"), inspects, networks: read("networks.json") };
}

/** The recorded engine's answers to `req`, logging the path asked in `requests`. */
function engineHandler(state: FakeDockerState, requests: string[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://docker");
    const path = url.pathname.replace(/^\/v1\.\d+/, "");
    requests.push(path);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "api-version": state.version.ApiVersion });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "GET") return send(405, { message: "method not allowed" });
    if (path === "/version") return send(200, state.version);
    if (path === "/networks") return send(200, state.networks);
    if (path === "/containers/json")
      return send(200, url.searchParams.get("all") === "1" ? state.containers : state.containers.filter((c) => c.State === "running"));
    const inspect = /^\/containers\/([^/]+)\/json$/.exec(path);
    if (inspect) {
      const id = decodeURIComponent(inspect[1]!);
      const found = [...state.inspects.values()].find((c) => c.Id === id || c.Id.startsWith(id) || c.Name === `/${id}`);
      return found ? send(200, found) : send(404, { message: `No such container: ${id}` });
    }
    send(404, { message: "page not found" });
  };
}

export async function startFakeDocker(): Promise<FakeDocker> {
  const dir = mkdtempSync(join(tmpdir(), "fake-docker-"));
  const socketPath = join(dir, "docker.sock");
  const state = recordedDockerState();
  const requests: string[] = [];
  const server: Server = createServer(engineHandler(state, requests));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketPath,
    state,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface FakeDockerTcp {
  /** tcp://host:port, as a Docker provider config names it. */
  url: string;
  state: FakeDockerState;
  requests: string[];
  close(): Promise<void>;
}

/**
 * The same engine on TCP at `host` (a 127.0.0.x address), over TLS with `tls` or plain. With
 * `tls.clientCa` it requires a client certificate signed by that CA, as dockerd --tlsverify does.
 */
export async function startFakeDockerTcp(options: {
  host: string;
  tls?: { key: string; cert: string; clientCa?: string };
}): Promise<FakeDockerTcp> {
  const state = recordedDockerState();
  const requests: string[] = [];
  const handle = engineHandler(state, requests);
  const tls = options.tls;
  const server: Server = tls
    ? createHttpsServer(
        { key: tls.key, cert: tls.cert, ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}) },
        handle,
      )
    : createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, options.host, resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `tcp://${options.host}:${port}`,
    state,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
