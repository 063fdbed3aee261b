// docker: one container's state from the Docker Engine API at the monitor's host, over TCP (TLS by
// default on 2376, as dockerd --tlsverify listens and the Docker provider's tcp:// endpoint defaults;
// plain HTTP on 2375 with tls false), through the Engine client core the discovery and the provider
// share (docker-engine.ts). Up when the container is running and, when it has a healthcheck and
// require_healthy holds (the default), its health is healthy; down naming the state or the health (with
// the last probe's output); down too when max_restarts is set and RestartCount exceeds it. The
// connection takes the monitor policy's lookup (reach.ts) and reaches only the monitor's host.
import { type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { CONTAINER_REF } from "../../shared/domain/monitors/snmp-mqtt-docker-check-types.ts";
import type { DockerContainerInspect } from "../../shared/verbs/discovery/docker/docker-api.ts";
import { DockerError, type DockerTransport, dockerEngine } from "../../shared/verbs/discovery/docker/docker-engine.ts";
import { serverNameOf, untilAborted } from "./pinned.ts";
import {
  type Check,
  type CheckSpec,
  CheckConfigError,
  ConfigReader,
  elapsed,
  failed,
  invalidConfig,
  reasonOf,
  succeeded,
} from "./result.ts";

const TLS_PORT = 2376;
const PLAIN_PORT = 2375;
/** An inspect is a few KiB; a larger answer is not the Engine's. */
const MAX_BYTES = 1 << 20;
const SHOWN = 200;

interface DockerTarget {
  container: string;
  port: number;
  tls: { ca: string | null; cert: string | null; key: string | null } | null;
  requireHealthy: boolean;
  maxRestarts: number | null;
}

/**
 * A PEM block as OpenSSL reads it: the console's secret field is a one-line password input, which drops
 * the line breaks of a pasted key, so a block on one line is laid out again (64 characters a line).
 */
export function pemLines(text: string): string {
  const m = /^\s*(-----BEGIN [A-Z ]+-----)\s*([A-Za-z0-9+/=\s]+?)\s*(-----END [A-Z ]+-----)\s*$/.exec(text);
  if (!m || text.trim().includes("\n")) return text;
  const body = (m[2] as string).replace(/\s+/g, "").match(/.{1,64}/g) ?? [];
  return `${m[1]}\n${body.join("\n")}\n${m[3]}\n`;
}

function targetOf(config: ConfigReader): DockerTarget {
  const container = config.string("container", null)?.replace(/^\//, "") ?? null;
  if (container === null) throw new CheckConfigError("container is required (its name or id)");
  if (!CONTAINER_REF.test(container))
    throw new CheckConfigError(`container ${JSON.stringify(container.slice(0, SHOWN))} is not a container name or id`);
  const tls = config.boolean("tls", true);
  const port = config.number("port", tls ? TLS_PORT : PLAIN_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
  const ca = config.string("ca_pem", null);
  const cert = config.string("client_cert", null);
  const given = config.string("client_key", null);
  const key = given === null ? null : pemLines(given);
  if (ca !== null && !ca.includes("-----BEGIN CERTIFICATE-----")) throw new CheckConfigError("ca_pem must hold PEM certificates");
  if ((cert === null) !== (key === null)) throw new CheckConfigError("client_cert and client_key go together");
  if (cert !== null && !cert.includes("-----BEGIN CERTIFICATE-----")) throw new CheckConfigError("client_cert must be a PEM certificate");
  if (key !== null && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new CheckConfigError("client_key must be a PEM private key");
  if (!tls && (ca !== null || cert !== null)) throw new CheckConfigError("ca_pem and a client certificate need tls");
  const maxRestarts = config.number("max_restarts", null);
  if (maxRestarts !== null && (!Number.isInteger(maxRestarts) || maxRestarts < 0))
    throw new CheckConfigError("max_restarts must be a whole number");
  return { container, port, tls: tls ? { ca, cert, key } : null, requireHealthy: config.boolean("require_healthy", true), maxRestarts };
}

/** GET over node:http(s) to the monitor's host only, bounded in bytes and stopped by `signal`. */
function transportOf(spec: CheckSpec, target: DockerTarget, signal: AbortSignal): DockerTransport {
  const hostname = spec.host.replace(/^\[(.*)\]$/, "$1");
  const servername = serverNameOf(spec);
  const tls = target.tls;
  return (path) =>
    new Promise((resolve, reject) => {
      const options = {
        hostname,
        port: target.port,
        path,
        method: "GET",
        headers: { accept: "application/json" },
        signal,
        agent: false,
        ...(spec.reach ? { lookup: spec.reach.lookup } : {}),
      };
      const onAnswer = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) return req.destroy(new DockerError("E2BIG", `the answer to ${path} exceeds ${MAX_BYTES} bytes`));
          chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      };
      const req = tls
        ? httpsRequest(
            {
              ...options,
              rejectUnauthorized: true,
              ...(servername ? { servername } : {}),
              ...(tls.ca !== null ? { ca: tls.ca } : {}),
              ...(tls.cert !== null && tls.key !== null ? { cert: tls.cert, key: tls.key } : {}),
            },
            onAnswer,
          )
        : httpRequest(options, onAnswer);
      req.on("error", reject);
      req.end();
    });
}

/** Why the container is not up, or null when it is. */
export function containerProblem(c: DockerContainerInspect, target: DockerTarget): string | null {
  const name = c.Name.replace(/^\//, "");
  const state = c.State;
  if (state.Status !== "running") {
    const exit = state.Status === "exited" && state.ExitCode !== undefined ? ` (exit code ${state.ExitCode})` : "";
    const error = state.Error ? `: ${state.Error.slice(0, SHOWN)}` : "";
    return `container ${name} is ${state.Status}${exit}${error}`;
  }
  const health = state.Health?.Status;
  if (target.requireHealthy && health && health !== "none" && health !== "healthy") {
    const last = state.Health?.Log?.at(-1)?.Output?.trim();
    return `container ${name} is running, health ${health}${last ? `: ${JSON.stringify(last.slice(0, SHOWN))}` : ""}`;
  }
  const restarts = c.RestartCount ?? 0;
  if (target.maxRestarts !== null && restarts > target.maxRestarts)
    return `container ${name} restarted ${restarts} times, more than max_restarts ${target.maxRestarts}`;
  return null;
}

/** The Engine's refusal in a user's words. */
function engineReason(e: unknown, container: string): string {
  if (e instanceof DockerError) {
    if (e.code === 404) return `no such container ${JSON.stringify(container)}`;
    return `Docker Engine: ${e.message}`;
  }
  return `Docker Engine unreachable: ${reasonOf(e)}`;
}

export const dockerCheck: Check = async (spec, signal) => {
  let target: DockerTarget;
  try {
    target = targetOf(new ConfigReader(spec.config));
  } catch (e) {
    return invalidConfig(e);
  }
  const start = performance.now();
  try {
    const engine = dockerEngine(transportOf(spec, target, signal));
    const inspect = await untilAborted(engine.inspect(target.container), signal, () => {});
    const latency = elapsed(start);
    const restarts = inspect.RestartCount ?? 0;
    const extra = [{ metric: "restart_count", value: restarts }];
    const problem = containerProblem(inspect, target);
    if (problem) return failed(problem, latency, extra);
    const health = inspect.State.Health?.Status;
    const shownHealth = health && health !== "none" ? health : "no healthcheck";
    return succeeded(`container ${inspect.Name.replace(/^\//, "")} running, ${shownHealth}, ${restarts} restarts`, latency, extra);
  } catch (e) {
    return failed(signal.aborted ? "timeout" : engineReason(e, target.container), signal.aborted ? null : elapsed(start));
  }
};
