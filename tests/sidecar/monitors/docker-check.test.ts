// The docker check against the recorded fake Docker Engine (tests/helpers/fake-docker.ts) on 127.0.0.1,
// plain HTTP and TLS with a client certificate as dockerd --tlsverify asks: up on a running container
// (by name or id), with its health and restarts; down on an exited one, on health unhealthy or
// starting, on more restarts than max_restarts and on a container the engine does not have; an
// invalid config; a silent engine costs its timeout; the monitor policy refuses before connecting.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXECUTORS, runCheck } from "../../../net/checks/run-check.ts";
import type { DockerContainerInspect } from "../../../shared/verbs/discovery/docker/docker-api.ts";
import { type FakeDockerTcp, startFakeDockerTcp } from "../../helpers/fake-docker.ts";
import { expectPolicyRefusals, issueCert, type Pem, type SilentPeer, startSilentPeer, testCa } from "./net-peers.ts";
import { closedPort } from "./peers.ts";

// An engine's answer for a container with a healthcheck (healthy, restarted 3 times).
const API: DockerContainerInspect = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../fixtures/docker/healthcheck/container-5e1f0a2b9c7d.json"), "utf8"),
);
let plain: FakeDockerTcp;
let secure: FakeDockerTcp;
let ca: Pem;
let client: Pem;
let silent: SilentPeer;

const portOf = (engine: FakeDockerTcp) => Number(new URL(engine.url.replace("tcp://", "http://")).port);

beforeAll(async () => {
  plain = await startFakeDockerTcp({ host: "127.0.0.1" });
  plain.state.inspects.set(API.Id, API);
  ca = testCa();
  const server = issueCert(ca, ["localhost", "127.0.0.1"]);
  client = issueCert(ca, ["monitor-client"]);
  secure = await startFakeDockerTcp({ host: "127.0.0.1", tls: { ...server, clientCa: ca.cert } });
  secure.state.inspects.set(API.Id, API);
  silent = await startSilentPeer();
});
afterAll(async () => {
  await plain?.close();
  await secure?.close();
  await silent?.close();
});

const check = (config: Record<string, unknown>) =>
  runCheck({ check_type: "docker", host: "127.0.0.1", config: { tls: false, port: portOf(plain), ...config } });

/** Replaces the api container's recorded state for the rest of one test (restored after). */
async function withApi(change: (c: DockerContainerInspect) => DockerContainerInspect, run: () => Promise<void>) {
  plain.state.inspects.set(API.Id, change(structuredClone(API)));
  try {
    await run();
  } finally {
    plain.state.inspects.set(API.Id, API);
  }
}

describe("docker check", () => {
  it("is up on a running container, by name or id, with its health and restarts", async () => {
    const r = await check({ container: "api" });
    expect(r).toMatchObject({ up: true, msg: "container api running, healthy, 3 restarts" });
    expect(r.samples).toEqual(
      expect.arrayContaining([
        { metric: "avail", value: 1 },
        { metric: "latency_ms", value: r.latency_ms },
        { metric: "restart_count", value: 3 },
      ]),
    );
    expect(await check({ container: "5e1f0a2b9c7d" })).toMatchObject({ up: true });
    // A container without a healthcheck is judged by its state alone.
    expect(await check({ container: "/web" })).toMatchObject({ up: true, msg: "container web running, no healthcheck, 0 restarts" });
    expect(plain.requests).toContain("/containers/api/json");
  });

  it("is down on a container that is not running, naming its state", async () => {
    expect(await check({ container: "backup-job" })).toMatchObject({ up: false, msg: "container backup-job is exited (exit code 0)" });
    await withApi(
      (c) => ({ ...c, State: { ...c.State, Status: "restarting", Running: true, Restarting: true } }),
      async () => expect(await check({ container: "api" })).toMatchObject({ up: false, msg: "container api is restarting" }),
    );
  });

  it("is down when the health is not healthy, unless require_healthy is off", async () => {
    await withApi(
      (c) => ({
        ...c,
        State: {
          ...c.State,
          Health: {
            Status: "unhealthy",
            FailingStreak: 3,
            Log: [{ Start: "2023-11-15T09:00:00Z", End: "2023-11-15T09:00:05Z", ExitCode: 1, Output: "curl: (7) Failed to connect\n" }],
          },
        },
      }),
      async () => {
        expect(await check({ container: "api" })).toMatchObject({
          up: false,
          msg: 'container api is running, health unhealthy: "curl: (7) Failed to connect"',
        });
        expect(await check({ container: "api", require_healthy: false })).toMatchObject({ up: true });
      },
    );
    await withApi(
      (c) => ({ ...c, State: { ...c.State, Health: { Status: "starting", FailingStreak: 0, Log: [] } } }),
      async () => expect(await check({ container: "api" })).toMatchObject({ up: false, msg: "container api is running, health starting" }),
    );
  });

  it("is down when the restarts exceed max_restarts", async () => {
    expect(await check({ container: "api", max_restarts: 3 })).toMatchObject({ up: true });
    const r = await check({ container: "api", max_restarts: 2 });
    expect(r).toMatchObject({ up: false, msg: "container api restarted 3 times, more than max_restarts 2" });
    expect(r.samples).toContainEqual({ metric: "restart_count", value: 3 });
  });

  it("is down on a container the engine does not have, and on an engine that is not there", async () => {
    expect(await check({ container: "gone" })).toMatchObject({ up: false, msg: 'no such container "gone"' });
    expect(await check({ container: "api", port: await closedPort() })).toMatchObject({
      up: false,
      msg: "Docker Engine unreachable: ECONNREFUSED",
    });
  });

  it("speaks TLS with a client certificate, verifying the engine's against ca_pem", async () => {
    const tls = { tls: true, port: portOf(secure), ca_pem: ca.cert, client_cert: client.cert, client_key: client.key };
    expect(await check({ ...tls, container: "api" })).toMatchObject({ up: true, msg: "container api running, healthy, 3 restarts" });
    // A key pasted into the console's one-line secret field arrives without its line breaks.
    expect(await check({ ...tls, client_key: client.key.replace(/\n/g, ""), container: "api" })).toMatchObject({ up: true });
    // Without the client certificate the engine refuses the handshake; without the CA, the check does.
    expect((await check({ ...tls, client_cert: null, client_key: null, container: "api" })).up).toBe(false);
    const untrusted = await check({ ...tls, ca_pem: null, container: "api" });
    expect(untrusted.up).toBe(false);
    expect(untrusted.msg).toMatch(/^Docker Engine unreachable: .*(CERT|SELF_SIGNED|certificate)/i);
  });

  it("answers an invalid config without connecting", async () => {
    const before = plain.requests.length;
    expect(await check({})).toMatchObject({ invalid_config: true, msg: "invalid config: container is required (its name or id)" });
    expect(await check({ container: "../../version" })).toMatchObject({ invalid_config: true });
    expect(await check({ container: "api", client_cert: client.cert })).toMatchObject({
      invalid_config: true,
      msg: "invalid config: client_cert and client_key go together",
    });
    expect(await check({ container: "api", ca_pem: ca.cert })).toMatchObject({
      invalid_config: true,
      msg: "invalid config: ca_pem and a client certificate need tls",
    });
    expect(await check({ container: "api", max_restarts: -1 })).toMatchObject({ invalid_config: true });
    expect(plain.requests.length).toBe(before);
  });

  it("costs a silent engine its timeout, then answers timeout", async () => {
    const r = await check({ container: "api", port: silent.port, timeout: 0.5 });
    expect(r).toMatchObject({ up: false, msg: "timeout" });
    expect(silent.accepted).toBeGreaterThan(0);
  });

  it("is refused by the monitor policy before connecting", async () => {
    await expectPolicyRefusals("docker", { container: "api", tls: false, port: silent.port }, silent);
  });

  it("runs as the reference agent runs it: the executor alone, on the monitor's host only", async () => {
    const spec = {
      check_type: "docker" as const,
      host: "127.0.0.1",
      config: { container: "api", tls: false, port: portOf(plain) },
      hostOnly: true,
    };
    expect(await EXECUTORS.docker({})(spec, AbortSignal.timeout(5000), 2000)).toMatchObject({ up: true });
  });
});
