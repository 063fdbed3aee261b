// The mqtt check against a real broker (aedes) on 127.0.0.1, plain and over TLS with a test CA: up on
// CONNACK, down with the broker's CONNACK reason on bad credentials, a retained payload that contains
// the expected text or does not, a message published after the check subscribed, no message in time
// (timeout), a silent peer (timeout), a closed port, an invalid config, and the monitor policy. MQTT 5
// (`protocol_version` 5) against Debian's Mosquitto started by the test (tests/helpers/mosquitto.ts;
// aedes does not speak MQTT 5): accepted, its log showing the protocol level 5, a retained payload, and a
// refusal showing the CONNACK's reason code.
import { createServer, type Server } from "node:net";
import { createServer as createTlsServer, type Server as TlsServer } from "node:tls";
import { Aedes, type AuthenticateError } from "aedes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect as connectMqtt } from "mqtt";
import { EXECUTORS, runCheck } from "../../../net/checks/run-check.ts";
import { type Mosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { expectPolicyRefusals, issueCert, type Pem, type SilentPeer, startSilentPeer, testCa } from "./net-peers.ts";
import { closedPort } from "./peers.ts";

const USER = "probe";
const PASSWORD = "s3cret-mqtt";
let broker: Aedes;
let plain: Server;
let secure: TlsServer;
let port: number;
let tlsPort: number;
let ca: Pem;
let silent: SilentPeer;
let connections = 0;

const listen = async (server: Server | TlsServer) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
};
const publish = (topic: string, payload: string, retain: boolean) =>
  new Promise<void>((resolve, reject) =>
    broker.publish({ cmd: "publish", topic, payload: Buffer.from(payload), qos: 0, retain, dup: false }, (e) =>
      e ? reject(e) : resolve(),
    ),
  );

beforeAll(async () => {
  broker = await Aedes.createBroker({
    // Anonymous clients are let in; a named one must give the test's password.
    authenticate: (_client, username, password, done) => {
      if (username === undefined || (username === USER && password?.toString() === PASSWORD)) return done(null, true);
      done(Object.assign(new Error("bad user name or password"), { returnCode: 4 }) as AuthenticateError, false);
    },
  });
  // A message published the moment the check has subscribed to live/#: no retained copy, a live one.
  broker.on("subscribe", (subscriptions) => {
    if (subscriptions.some((s) => s.topic === "live/#")) setImmediate(() => void publish("live/temperature", "21.5", false));
  });
  plain = createServer((socket) => {
    connections++;
    broker.handle(socket);
  });
  port = await listen(plain);
  ca = testCa();
  const leaf = issueCert(ca, ["localhost", "127.0.0.1"]);
  secure = createTlsServer({ key: leaf.key, cert: leaf.cert }, (socket) => broker.handle(socket));
  tlsPort = await listen(secure);
  silent = await startSilentPeer();
  await publish("status/ups", '{"state":"online","load":12}', true);
});
afterAll(async () => {
  await silent?.close();
  await new Promise<void>((resolve) => broker?.close(() => resolve()));
  await new Promise<void>((resolve) => (plain ? plain.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (secure ? secure.close(() => resolve()) : resolve()));
});

const check = (config: Record<string, unknown>, host = "127.0.0.1") => runCheck({ check_type: "mqtt", host, config: { port, ...config } });

describe("mqtt check", () => {
  it("is up on CONNACK, anonymous or logged in, with the CONNACK time as latency", async () => {
    const r = await check({});
    expect(r).toMatchObject({ up: true, msg: "CONNACK accepted" });
    expect(r.samples).toEqual(
      expect.arrayContaining([
        { metric: "avail", value: 1 },
        { metric: "latency_ms", value: r.latency_ms },
      ]),
    );
    expect(await check({ username: USER, password: PASSWORD, client_id: "monitor-7" })).toMatchObject({ up: true });
  });

  it("is down with the broker's CONNACK reason on bad credentials", async () => {
    const r = await check({ username: USER, password: "wrong" });
    expect(r).toMatchObject({ up: false, msg: "connect failed: CONNACK refused (4): Bad username or password" });
    expect(r.latency_ms).not.toBeNull();
  });

  it("judges the first payload on the topic: a retained one contains the text, or not", async () => {
    expect(await check({ topic: "status/ups", expected_payload: '"state":"online"' })).toMatchObject({
      up: true,
      msg: 'CONNACK accepted, payload "{\\"state\\":\\"online\\",\\"load\\":12}" on "status/ups"',
    });
    expect(await check({ topic: "status/+" })).toMatchObject({ up: true });
    expect(await check({ topic: "status/ups", expected_payload: "offline" })).toMatchObject({
      up: false,
      msg: 'payload "{\\"state\\":\\"online\\",\\"load\\":12}" on "status/ups" does not contain "offline"',
    });
  });

  it("takes a message published after it subscribed", async () => {
    expect(await check({ topic: "live/#", expected_payload: "21" })).toMatchObject({
      up: true,
      msg: 'CONNACK accepted, payload "21.5" on "live/temperature"',
    });
  });

  it("answers timeout when no message comes, and when the peer never sends CONNACK", async () => {
    const quiet = await check({ topic: "nobody/publishes/here", timeout: 0.5 });
    expect(quiet).toMatchObject({ up: false, msg: 'timeout: no message on "nobody/publishes/here"' });
    expect(quiet.latency_ms).not.toBeNull();
    const mute = await check({ port: silent.port, timeout: 0.5 });
    expect(mute).toMatchObject({ up: false, msg: "timeout: no CONNACK" });
    expect(silent.accepted).toBeGreaterThan(0);
  });

  it("is down on a closed port", async () => {
    expect(await check({ port: await closedPort() })).toMatchObject({ up: false, msg: "connect failed: ECONNREFUSED" });
  });

  it("connects over TLS, verifying the broker's certificate against ca_pem", async () => {
    expect(await check({ port: tlsPort, tls: true, ca_pem: ca.cert, topic: "status/ups" })).toMatchObject({ up: true });
    expect(await check({ port: tlsPort, tls: true, ca_pem: ca.cert }, "localhost")).toMatchObject({ up: true });
    // Without the CA the chain is unknown: down, and never logged in.
    const untrusted = await check({ port: tlsPort, tls: true });
    expect(untrusted.up).toBe(false);
    expect(untrusted.msg).toMatch(/^connect failed: .*(certificate|UNABLE_TO_VERIFY|SELF_SIGNED)/i);
  });

  describe("MQTT 5 (protocol_version 5), against Mosquitto", () => {
    let mosquitto: Mosquitto;
    beforeAll(async () => {
      mosquitto = await startMosquitto({ users: { [USER]: PASSWORD } });
      // A retained status, published with MQTT 5 by a client of the test's own.
      const publisher = connectMqtt({ host: "127.0.0.1", port: mosquitto.port, protocolVersion: 5, reconnectPeriod: 0 });
      await new Promise<void>((resolve, reject) => {
        publisher.once("error", reject);
        publisher.once("connect", () =>
          publisher.publish("status/v5", "online", { qos: 1, retain: true }, (e) => (e ? reject(e) : resolve())),
        );
      });
      await publisher.endAsync();
    }, 30_000);
    afterAll(() => mosquitto?.stop());

    const v5 = (config: Record<string, unknown>) => check({ port: mosquitto.port, protocol_version: 5, ...config });

    it("is up on an MQTT 5 CONNACK, the broker seeing protocol level 5, and reads a retained payload", async () => {
      expect(await v5({ client_id: "monitor-v5-anon" })).toMatchObject({ up: true, msg: "CONNACK accepted" });
      expect(await v5({ client_id: "monitor-v5-user", username: USER, password: PASSWORD })).toMatchObject({ up: true });
      // Mosquitto logs each client's protocol: p5 is MQTT 5, p2 its name for 3.1.1.
      // (The log comes through a pipe: it may land a moment after the CONNACK.)
      await expect.poll(() => mosquitto.log()).toMatch(/as monitor-v5-anon \(p5,/);
      await expect.poll(() => mosquitto.log()).toMatch(/as monitor-v5-user \(p5,.*u'probe'/);
      expect(await v5({ topic: "status/v5", expected_payload: "online" })).toMatchObject({
        up: true,
        msg: 'CONNACK accepted, payload "online" on "status/v5"',
      });
      // Without protocol_version the check speaks 3.1.1 to the same broker.
      expect(await check({ port: mosquitto.port, client_id: "monitor-v4" })).toMatchObject({ up: true });
      await expect.poll(() => mosquitto.log()).toMatch(/as monitor-v4 \(p2,/);
    });

    it("is down with the CONNACK's reason code on a refusal", async () => {
      const r = await v5({ username: USER, password: "wrong" });
      expect(r).toMatchObject({ up: false, msg: "connect failed: CONNACK refused: Not authorized (135)" });
      expect(r.latency_ms).not.toBeNull();
      // The same refusal in 3.1.1 is its return code 5.
      expect(await check({ port: mosquitto.port, username: USER, password: "wrong" })).toMatchObject({
        up: false,
        msg: "connect failed: CONNACK refused (5): Not authorized",
      });
    });
  });

  it("answers an invalid config without connecting", async () => {
    const before = connections;
    expect(await check({ topic: "a/#/b" })).toMatchObject({
      invalid_config: true,
      msg: 'invalid config: topic "a/#/b" is not a valid topic filter',
    });
    expect(await check({ expected_payload: "x" })).toMatchObject({
      invalid_config: true,
      msg: "invalid config: expected_payload needs a topic",
    });
    expect(await check({ password: "x" })).toMatchObject({ invalid_config: true, msg: "invalid config: password needs a username" });
    expect(await check({ tls: "yes" })).toMatchObject({ invalid_config: true });
    expect(await check({ protocol_version: 3 })).toMatchObject({
      invalid_config: true,
      msg: "invalid config: protocol_version must be 4 (MQTT 3.1.1) or 5 (MQTT 5)",
    });
    expect(connections).toBe(before);
  });

  it("is refused by the monitor policy before connecting", async () => {
    await expectPolicyRefusals("mqtt", { port: silent.port }, silent);
  });

  it("runs as the reference agent runs it: the executor alone, on the monitor's host only", async () => {
    const spec = { check_type: "mqtt" as const, host: "127.0.0.1", config: { port, topic: "status/ups" }, hostOnly: true };
    expect(await EXECUTORS.mqtt({})(spec, AbortSignal.timeout(5000), 2000)).toMatchObject({ up: true });
  });
});
