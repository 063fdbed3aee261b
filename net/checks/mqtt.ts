// mqtt: connect to the broker (MQTT 3.1.1, or MQTT 5 with `protocol_version` 5, through the mqtt package;
// TLS with `tls`), log in with the monitor's user and password, and be accepted (CONNACK 0): that is up,
// with the CONNACK time as latency. A refusal names the CONNACK's code (MQTT 5: its reason code, and the
// broker's reason string when it sends one).
// With a `topic`, the check subscribes to it and the first message delivered within the timeout decides:
// up when its payload contains `expected_payload` (any payload without one), down showing it otherwise;
// a retained message counts, so a status topic answers at once. No message in time is a timeout. The
// client gets the address the monitor policy allowed (pinned.ts), never reconnects, and is closed after.
import { randomBytes } from "node:crypto";
import { connect, type IClientOptions, type MqttClient } from "mqtt";
import { MQTT_PROTOCOL_VERSIONS } from "../../shared/domain/monitors/snmp-mqtt-docker-check-types.ts";
import { pinnedAddress, serverNameOf, untilAborted } from "./pinned.ts";
import { type Check, CheckConfigError, ConfigReader, elapsed, failed, invalidConfig, reasonOf, succeeded } from "./result.ts";

/** The CONNECT packet's protocol level byte: 4 is MQTT 3.1.1, 5 is MQTT 5. */
type ProtocolVersion = (typeof MQTT_PROTOCOL_VERSIONS)[number];
const PLAIN_PORT = 1883;
const TLS_PORT = 8883;
/** Enough of a payload to show in a message. */
const SHOWN = 200;

/** A topic filter as MQTT 3.1.1 (4.7) allows it: `#` alone and last, `+` a whole level, no NUL. */
export function validTopicFilter(topic: string): boolean {
  if (topic === "" || topic.includes("\0") || Buffer.byteLength(topic) > 65_535) return false;
  const levels = topic.split("/");
  return levels.every((level, i) =>
    level === "#" ? i === levels.length - 1 : level === "+" || (!level.includes("#") && !level.includes("+")),
  );
}

interface MqttTarget {
  options: IClientOptions;
  topic: string | null;
  expected: string | null;
}

function targetOf(spec: Parameters<Check>[0], timeoutMs: number): MqttTarget {
  const config = new ConfigReader(spec.config);
  const tls = config.boolean("tls", false);
  const port = config.number("port", tls ? TLS_PORT : PLAIN_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
  const ca = config.string("ca_pem", null);
  if (ca !== null && !ca.includes("-----BEGIN CERTIFICATE-----")) throw new CheckConfigError("ca_pem must hold PEM certificates");
  const username = config.string("username", null);
  const password = config.string("password", null);
  if (password !== null && username === null) throw new CheckConfigError("password needs a username");
  const topic = config.string("topic", null);
  if (topic !== null && !validTopicFilter(topic))
    throw new CheckConfigError(`topic ${JSON.stringify(topic.slice(0, SHOWN))} is not a valid topic filter`);
  const expected = config.string("expected_payload", null);
  if (expected !== null && topic === null) throw new CheckConfigError("expected_payload needs a topic");
  const protocolVersion = config.number("protocol_version", 4);
  if (!(MQTT_PROTOCOL_VERSIONS as readonly number[]).includes(protocolVersion))
    throw new CheckConfigError("protocol_version must be 4 (MQTT 3.1.1) or 5 (MQTT 5)");
  const servername = serverNameOf(spec);
  return {
    options: {
      port,
      protocol: tls ? "mqtts" : "mqtt",
      protocolVersion: protocolVersion as ProtocolVersion,
      clientId: config.string("client_id", null) ?? `monitor-check-${randomBytes(6).toString("hex")}`,
      clean: true,
      ...(username !== null ? { username } : {}),
      ...(password !== null ? { password } : {}),
      // Past the check's own timeout, so the abort (a "timeout" answer) always comes first.
      connectTimeout: timeoutMs + 1000,
      // One attempt: a check that reconnected would hide the failure it exists to see.
      reconnectPeriod: 0,
      ...(tls ? { rejectUnauthorized: true, ...(ca !== null ? { ca } : {}), ...(servername ? { servername } : {}) } : {}),
    },
    topic,
    expected,
  };
}

/**
 * Resolves on CONNACK accepted; rejects with the broker's refusal (its CONNACK code, and an MQTT 5
 * CONNACK's reason string as `reasonString`) or the connection's error.
 */
function connected(client: MqttClient): Promise<void> {
  return new Promise((resolve, reject) => {
    let reasonString: string | undefined;
    // The CONNACK is seen here before the client turns a refusal into an error that drops its properties.
    client.on("packetreceive", (packet) => {
      if (packet.cmd === "connack") reasonString = packet.properties?.reasonString;
    });
    client.once("connect", () => resolve());
    client.once("error", (e) => reject(reasonString === undefined ? e : Object.assign(e, { reasonString })));
    client.once("close", () => reject(new Error("the broker closed the connection before CONNACK")));
  });
}

/** The first message on the subscription; rejects when the broker refuses the subscription. */
function firstMessage(client: MqttClient, topic: string): Promise<{ topic: string; payload: Buffer }> {
  return new Promise((resolve, reject) => {
    client.once("message", (t, payload) => resolve({ topic: t, payload }));
    client.once("close", () => reject(new Error("the broker closed the connection")));
    client.subscribe(topic, { qos: 0 }, (e, granted) => {
      if (e) return reject(e);
      // SUBACK 0x80: the broker refused the subscription (MQTT 3.1.1 3.9.3).
      if (granted?.[0]?.qos === 128) reject(new Error(`subscription to ${JSON.stringify(topic)} refused by the broker`));
    });
  });
}

/**
 * The broker's refusal or the connection's error. MQTT 3.1.1: `CONNACK refused (4): Bad username or
 * password`; MQTT 5: `CONNACK refused: Not authorized (135)`, then the broker's reason string if any.
 */
function mqttReason(e: unknown, version: ProtocolVersion): string {
  const err = e as { message?: string; code?: unknown; reasonString?: string };
  if (typeof err?.code !== "number") return reasonOf(e);
  const text = (err.message ?? "").replace(/^Connection refused: /, "");
  if (version === 4) return `CONNACK refused (${err.code}): ${text}`;
  return `CONNACK refused: ${text} (${err.code})${err.reasonString ? `: ${JSON.stringify(err.reasonString.slice(0, SHOWN))}` : ""}`;
}

export const mqttCheck: Check = async (spec, signal, timeoutMs) => {
  let target: MqttTarget;
  try {
    target = targetOf(spec, timeoutMs);
  } catch (e) {
    return invalidConfig(e);
  }
  const start = performance.now();
  let client: MqttClient | null = null;
  let latency: number | null = null;
  const close = () => client?.end(true);
  try {
    const host = await untilAborted(pinnedAddress(spec), signal, () => {});
    client = connect({ ...target.options, host });
    // Errors after the first are the same failure seen again; unheard, one would crash the process.
    client.on("error", () => {});
    await untilAborted(connected(client), signal, close);
    latency = elapsed(start);
    if (target.topic === null) return succeeded("CONNACK accepted", latency);
    const { topic, payload } = await untilAborted(firstMessage(client, target.topic), signal, close);
    const text = payload.toString("utf8");
    const shown = `payload ${JSON.stringify(text.slice(0, SHOWN))}${text.length > SHOWN ? "..." : ""} on ${JSON.stringify(topic)}`;
    if (target.expected !== null && !text.includes(target.expected))
      return failed(`${shown} does not contain ${JSON.stringify(target.expected)}`, latency);
    return succeeded(`CONNACK accepted, ${shown}`, latency);
  } catch (e) {
    if (signal.aborted)
      return failed(latency === null ? "timeout: no CONNACK" : `timeout: no message on ${JSON.stringify(target.topic)}`, latency);
    return failed(
      latency === null
        ? `connect failed: ${mqttReason(e, target.options.protocolVersion as ProtocolVersion)}`
        : `subscribe failed: ${reasonOf(e)}`,
      latency ?? elapsed(start),
    );
  } finally {
    close();
  }
};
