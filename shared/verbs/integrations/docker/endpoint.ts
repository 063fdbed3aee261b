// Where a Docker provider config points: `unix:///var/run/docker.sock` (the engine's socket, mounted
// into the sidecar) or `tcp://host:2376` (TLS, the engine's --tlsverify port; plain HTTP only when the
// config says `extra_config.tls: false`, for an engine on a trusted lab network); `https://host:port` is
// the same as tcp:// with TLS. The inventory source is
// `docker:<socket path>` for a socket, the same one the discovery scan of that socket uses, so a scan
// and the provider update the same rows; `docker:tcp://host:port` for an engine over TCP.
import { dockerSource } from "../../discovery/docker/sync-docker.ts";

export type DockerEndpoint =
  | { kind: "unix"; socketPath: string; source: string; key: string }
  | { kind: "tcp"; baseUrl: string; tls: boolean; source: string; key: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const MAX_SOCKET_PATH = 107;

export function parseDockerUrl(raw: string, extra: Record<string, unknown> = {}): Parsed<DockerEndpoint> {
  const text = raw.trim();
  if (text.startsWith("unix://")) {
    const socketPath = text.slice("unix://".length);
    if (!socketPath.startsWith("/"))
      return { ok: false, message: "A unix:// URL names an absolute socket path (unix:///var/run/docker.sock)." };
    if (socketPath.length > MAX_SOCKET_PATH || socketPath.split("/").includes("..") || /[\0\n\r?#]/.test(socketPath))
      return { ok: false, message: "The socket path must be at most 107 bytes, without '..' segments or control characters." };
    return { ok: true, value: { kind: "unix", socketPath, source: dockerSource(socketPath), key: socketPath } };
  }
  // https://host:port is the same engine as tcp://host:port with TLS (and shares its inventory source).
  const https = text.startsWith("https://");
  if (text.startsWith("tcp://") || https) {
    let url: URL;
    try {
      url = new URL(`http://${text.slice(https ? "https://".length : "tcp://".length)}`);
    } catch {
      return { ok: false, message: "A tcp:// URL names a host and port (tcp://docker-host:2376)." };
    }
    if (url.username || url.password)
      return { ok: false, message: "A tcp:// URL must not carry credentials: a client certificate goes in the credential." };
    if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash)
      return { ok: false, message: "A tcp:// URL names only a host and port (tcp://docker-host:2376)." };
    const tls = https || extra.tls !== false;
    const port = url.port || (tls ? "2376" : "2375");
    const key = `tcp://${url.hostname}:${port}`;
    return {
      ok: true,
      value: { kind: "tcp", baseUrl: `${tls ? "https" : "http"}://${url.hostname}:${port}`, tls, source: dockerSource(key), key },
    };
  }
  return { ok: false, message: "A Docker endpoint is unix:///path/to/docker.sock or tcp://host:port." };
}

/** The clear credential of a TLS Docker provider: a client certificate and its key, PEM. */
export interface DockerTlsCredential {
  cert?: string;
  key?: string;
}

export function parseDockerCredential(clear: string | null): Parsed<DockerTlsCredential | null> {
  if (clear === null || clear.trim() === "") return { ok: true, value: null };
  let value: unknown;
  try {
    value = JSON.parse(clear);
  } catch {
    return { ok: false, message: 'The Docker credential is a JSON object {"cert": PEM, "key": PEM}.' };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: 'The Docker credential is a JSON object {"cert": PEM, "key": PEM}.' };
  const { cert, key } = value as Record<string, unknown>;
  if ((cert === undefined) !== (key === undefined))
    return { ok: false, message: "The Docker credential needs both the client certificate (cert) and its key (key)." };
  if (cert !== undefined && (typeof cert !== "string" || !cert.includes("-----BEGIN CERTIFICATE-----")))
    return { ok: false, message: "The credential's cert must be a PEM certificate." };
  if (key !== undefined && (typeof key !== "string" || !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)))
    return { ok: false, message: "The credential's key must be a PEM private key." };
  return { ok: true, value: cert === undefined ? null : { cert: cert as string, key: key as string } };
}
