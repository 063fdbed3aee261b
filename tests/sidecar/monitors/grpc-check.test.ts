// The grpc check against real grpc-js servers on loopback (@grpc/grpc-js, a dev dependency: the test's
// independent gRPC implementation): a health service answering per service name (SERVING, NOT_SERVING,
// unknown: NOT_FOUND) in plain HTTP/2 and over TLS (a test CA's certificate, trusted through ca_pem, and
// the same server untrusted without it), a server without the health service (UNIMPLEMENTED), one whose
// health service never answers and a silent TCP peer (the timeout), a refused port, bad configs and the
// monitor policy's refusals.
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthRequestFrame, servingStatusOf } from "../../../net/checks/grpc.ts";
import { runCheck } from "../../../net/checks/run-check.ts";
import { closedPort } from "./peers.ts";
import { expectPolicyRefusals, issueCert, metric, type Pem, type SilentPeer, startSilentPeer, testCa } from "./net-peers.ts";

/** The service names the health service knows and their status (1 SERVING, 2 NOT_SERVING); others: NOT_FOUND. */
const STATUSES: Record<string, number> = { "": 1, "app.Orders": 1, "app.Billing": 2 };

/** HealthCheckRequest.service, as grpc-js hands the raw request bytes over (field 1, one-byte length). */
const serviceOf = (request: Buffer) => (request.length === 0 ? "" : request.subarray(2, 2 + request[1]!).toString("utf8"));

const raw = (b: Buffer) => b;
const HEALTH: grpc.ServiceDefinition = {
  check: {
    path: "/grpc.health.v1.Health/Check",
    requestStream: false,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
};
/** Another service, so a server without the health service still serves something. */
const ECHO: grpc.ServiceDefinition = { echo: { ...HEALTH.check!, path: "/app.Echo/Echo" } };

const servers: grpc.Server[] = [];
async function grpcPeer(
  services: [grpc.ServiceDefinition, grpc.UntypedServiceImplementation][],
  credentials = grpc.ServerCredentials.createInsecure(),
): Promise<number> {
  const server = new grpc.Server();
  for (const [definition, implementation] of services) server.addService(definition, implementation);
  servers.push(server);
  return new Promise((resolve, reject) => server.bindAsync("127.0.0.1:0", credentials, (e, port) => (e ? reject(e) : resolve(port))));
}

const healthy: grpc.UntypedServiceImplementation = {
  check: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
    const status = STATUSES[serviceOf(call.request)];
    if (status === undefined) return callback({ code: grpc.status.NOT_FOUND, details: "unknown service" });
    callback(null, Buffer.from([0x08, status]));
  },
};

let ca: Pem;
let plain: number;
let secure: number;
let withoutHealth: number;
let hanging: number;
let silent: SilentPeer;

beforeAll(async () => {
  ca = testCa();
  const leaf = issueCert(ca, ["localhost", "127.0.0.1"], 30);
  plain = await grpcPeer([[HEALTH, healthy]]);
  secure = await grpcPeer(
    [[HEALTH, healthy]],
    grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(leaf.key), cert_chain: Buffer.from(leaf.cert) }]),
  );
  withoutHealth = await grpcPeer([[ECHO, { echo: healthy.check! }]]);
  hanging = await grpcPeer([[HEALTH, { check: () => {} }]]);
  silent = await startSilentPeer();
});
afterAll(async () => {
  for (const s of servers) s.forceShutdown();
  await silent?.close();
});

const check = (config: Record<string, unknown>) => runCheck({ check_type: "grpc", host: "127.0.0.1", config });

describe("grpc check", () => {
  it("is up when the health service answers SERVING, for the server and for a named service", async () => {
    const whole = await check({ port: plain });
    expect(whole.up, whole.msg).toBe(true);
    expect(whole.msg).toBe("SERVING");
    expect(metric(whole.samples, "latency_ms")).toBeGreaterThanOrEqual(0);
    const named = await check({ port: plain, service: "app.Orders" });
    expect(named.up, named.msg).toBe(true);
    expect(named.msg).toBe('SERVING (service "app.Orders")');
  });

  it("is down naming the status: NOT_SERVING, an unknown service, a server without the health service", async () => {
    const notServing = await check({ port: plain, service: "app.Billing" });
    expect(notServing.up).toBe(false);
    expect(notServing.msg).toBe('NOT_SERVING (service "app.Billing")');
    expect((await check({ port: plain, service: "app.Nope" })).msg).toBe(
      'service "app.Nope" unknown to the health service (NOT_FOUND: unknown service)',
    );
    const unimplemented = await check({ port: withoutHealth });
    expect(unimplemented.up).toBe(false);
    expect(unimplemented.msg).toMatch(/^the server has no health service \(UNIMPLEMENTED/);
  });

  it("speaks TLS with ALPN h2 and judges the certificate as the tls type does", async () => {
    const r = await check({ port: secure, tls: true, ca_pem: ca.cert });
    expect(r.up, r.msg).toBe(true);
    expect(r.msg).toMatch(/^SERVING; TLSv1\.[23], certificate valid 2\d more days; subject CN=localhost/);
    expect(metric(r.samples, "cert_days_remaining")).toBeGreaterThanOrEqual(29);
    expect(metric(r.samples, "tls_handshake_ms")).toBeGreaterThanOrEqual(0);
    const untrusted = await check({ port: secure, tls: true });
    expect(untrusted.up).toBe(false);
    expect(untrusted.msg).toMatch(/^certificate not trusted: /);
    expect((await check({ port: secure, tls: true, verify_chain: false })).up).toBe(true);
  });

  it("is down on a refused port, and within its timeout on a call never answered and on a silent peer", async () => {
    const closed = await closedPort();
    expect((await check({ port: closed })).msg).toBe(`connect to port ${closed} failed: ECONNREFUSED`);
    const hung = await check({ port: hanging, timeout: 0.3 });
    expect(hung.up).toBe(false);
    expect(hung.msg).toBe("health check failed: timeout");
    expect((await check({ port: silent.port, timeout: 0.3 })).msg).toBe("health check failed: timeout");
  });

  it("answers a bad config as invalid", async () => {
    for (const config of [{}, { port: 70000 }, { port: plain, service: 5 }, { port: plain, tls: "yes" }]) {
      const r = await check(config);
      expect(r.invalid_config, JSON.stringify(config)).toBe(true);
      expect(r.msg).toMatch(/^invalid config: /);
    }
  });

  it("encodes the request and decodes the answer as protobuf does, unknown fields skipped", () => {
    expect(healthRequestFrame("").toString("hex")).toBe("0000000000");
    expect(healthRequestFrame("a.B").toString("hex")).toBe("00000000050a03612e42");
    expect(healthRequestFrame("x".repeat(200)).subarray(5, 8).toString("hex")).toBe("0ac801");
    expect(servingStatusOf(Buffer.alloc(0))).toBe(0);
    // field 2 (a string), field 3 (fixed32), then status 2.
    expect(servingStatusOf(Buffer.from("120268691d010203040802", "hex"))).toBe(2);
    expect(() => servingStatusOf(Buffer.from([0x08]))).toThrow(/truncated/);
  });

  it("honours the monitor policy: a refused address and a name resolving to one", async () => {
    await expectPolicyRefusals("grpc", { port: silent.port, timeout: 1 }, silent);
  });
});
