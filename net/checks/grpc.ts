// grpc: the gRPC Health Checking Protocol (grpc.health.v1.Health/Check) on host:config.port, for
// config.service ("" or none: the server as a whole), in plain HTTP/2 or over TLS (config.tls, the
// certificate judged as the tls type does: cert.ts). Up when the answer is SERVING; the message names
// the status otherwise (NOT_SERVING, UNKNOWN), or the gRPC code when the call fails (NOT_FOUND: the
// service is unknown to the health service; UNIMPLEMENTED: the server has no health service). Spoken
// with node:http2 and the two one-field protobuf messages encoded here (ADR 0436): the connection goes
// through the monitor policy's lookup like every other check and its TLS socket is ours to judge. The
// latency is the time from the connect to the answer; over TLS, tls_handshake_ms and cert_days_remaining.
import { connect as http2Connect, constants, type IncomingHttpHeaders } from "node:http2";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { judgeCertificate } from "./cert.ts";
import { connectPlain } from "./line-reader.ts";
import {
  type Check,
  type CheckSample,
  CheckConfigError,
  ConfigReader,
  elapsed,
  failed,
  invalidConfig,
  reasonOf,
  succeeded,
} from "./result.ts";
import { handshake, type TlsRules, tlsRulesOf } from "./tls-handshake.ts";

const PATH = "/grpc.health.v1.Health/Check";
/** A HealthCheckResponse is a few bytes; anything past this is not one. */
const MAX_REPLY_BYTES = 64 * 1024;
/** grpc.health.v1.HealthCheckResponse.ServingStatus. */
const SERVING_STATUS = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"] as const;
/** The gRPC status codes (grpc/doc/statuscodes.md), by number. */
const GRPC_CODES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

const varint = (n: number): number[] => (n > 0x7f ? [(n & 0x7f) | 0x80, ...varint(n >>> 7)] : [n]);

/** HealthCheckRequest { string service = 1; } in an uncompressed gRPC message frame. */
export function healthRequestFrame(service: string): Buffer {
  const name = Buffer.from(service, "utf8");
  const body = name.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name]);
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(body.length, 1);
  return Buffer.concat([prefix, body]);
}

/** The status (field 1, a varint) of a HealthCheckResponse; other fields are skipped; absent is 0 (proto3). */
export function servingStatusOf(message: Buffer): number {
  let at = 0;
  const readVarint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const byte = message[at++];
      if (byte === undefined) break;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new Error("a truncated varint");
  };
  let status = 0;
  while (at < message.length) {
    const key = readVarint();
    const wire = key % 8;
    if (wire === 0) {
      const value = readVarint();
      if (Math.floor(key / 8) === 1) status = value;
    } else if (wire === 2) {
      // Not `at += readVarint()`: that adds to `at` as it was before the length was read.
      const length = readVarint();
      at += length;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`protobuf wire type ${wire}`);
    if (at > message.length) throw new Error("a truncated field");
  }
  return status;
}

interface Answer {
  headers: IncomingHttpHeaders;
  trailers: IncomingHttpHeaders;
  body: Buffer;
}

/** One Check call on a connected socket: the response headers, trailers and body; rejects with the reason. */
function healthCall(socket: Socket, origin: string, service: string, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("timeout"));
    const session = http2Connect(origin, { createConnection: () => socket });
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // Closing the session resets the call, which cancels it on the server (no grpc-timeout is sent).
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      session.destroy();
      if (error) reject(error);
      else resolve({ headers, trailers, body: Buffer.concat(chunks) });
    };
    const onAbort = () => finish(new Error("timeout"));
    signal.addEventListener("abort", onAbort, { once: true });
    session.on("error", (e) => finish(new Error(reasonOf(e))));
    const call = session.request({
      ":method": "POST",
      ":path": PATH,
      "content-type": "application/grpc",
      te: "trailers",
      "user-agent": "infra-control-plane-monitor/1",
    });
    call.on("response", (h) => {
      headers = h;
    });
    call.on("trailers", (t) => {
      trailers = t;
    });
    call.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) finish(new Error(`a reply of more than ${MAX_REPLY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    call.on("error", (e) => finish(new Error(reasonOf(e))));
    call.on("close", () => {
      if (call.rstCode !== undefined && call.rstCode !== constants.NGHTTP2_NO_ERROR && headers["grpc-status"] === undefined)
        finish(new Error(`the server reset the call (HTTP/2 error ${call.rstCode})`));
      else finish(null);
    });
    call.end(healthRequestFrame(service));
  });
}

const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

function grpcMessageOf(answer: Answer): string {
  const raw = one(answer.trailers["grpc-message"]) ?? one(answer.headers["grpc-message"]) ?? "";
  try {
    return decodeURIComponent(raw).slice(0, 500);
  } catch {
    return raw.slice(0, 500);
  }
}

/** What the answer says: the serving status, or why there is none. */
function verdictOf(answer: Answer, service: string): { up: boolean; msg: string } {
  const status = Number(answer.headers[":status"]);
  if (status !== 200) return { up: false, msg: `HTTP ${status}, not a gRPC answer` };
  const contentType = one(answer.headers["content-type"]) ?? "";
  if (!contentType.startsWith("application/grpc"))
    return { up: false, msg: `content-type ${JSON.stringify(contentType)}, not a gRPC answer` };
  // A call that fails at once answers with headers alone ("Trailers-Only"): the status is in them.
  const rawCode = one(answer.trailers["grpc-status"]) ?? one(answer.headers["grpc-status"]);
  if (rawCode === undefined) return { up: false, msg: "no grpc-status in the answer" };
  const code = Number(rawCode);
  const name = GRPC_CODES[code] ?? `status ${rawCode}`;
  const detail = grpcMessageOf(answer);
  const said = detail ? `: ${detail}` : "";
  if (code === 5) return { up: false, msg: `service ${JSON.stringify(service)} unknown to the health service (NOT_FOUND${said})` };
  if (code === 12) return { up: false, msg: `the server has no health service (UNIMPLEMENTED${said})` };
  if (code !== 0) return { up: false, msg: `health check failed: ${name}${said}` };
  const body = answer.body;
  if (body.length < 5) return { up: false, msg: "no HealthCheckResponse in the answer" };
  if (body[0] !== 0) return { up: false, msg: "a compressed answer, which was not asked for" };
  const length = body.readUInt32BE(1);
  if (body.length < 5 + length) return { up: false, msg: "a truncated HealthCheckResponse" };
  const serving = servingStatusOf(body.subarray(5, 5 + length));
  const label = SERVING_STATUS[serving] ?? `status ${serving}`;
  return { up: serving === 1, msg: service ? `${label} (service ${JSON.stringify(service)})` : label };
}

export const grpcCheck: Check = async (spec, signal) => {
  let port: number;
  let service: string;
  let tls: boolean;
  let rules: TlsRules;
  try {
    const config = new ConfigReader(spec.config);
    const configured = config.number("port", null);
    if (configured === null) throw new CheckConfigError("config.port is required (gRPC has no standard port)");
    if (!Number.isInteger(configured) || configured < 1 || configured > 65535)
      throw new CheckConfigError("port must be an integer 1..65535");
    port = configured;
    service = config.string("service", "");
    tls = config.boolean("tls", false);
    rules = tlsRulesOf(config, spec.host);
  } catch (e) {
    return invalidConfig(e);
  }
  const start = performance.now();
  const extra: CheckSample[] = [];
  let socket: Socket;
  let secured: TLSSocket | null = null;
  let tlsSummary = "";
  try {
    if (tls) {
      const done = await handshake({ host: spec.host, port, lookup: spec.reach?.lookup, alpn: ["h2"] }, rules, signal);
      socket = secured = done.socket;
      extra.push({ metric: "tls_handshake_ms", value: done.ms });
    } else socket = (await connectPlain(spec.host, port, signal, spec.reach?.lookup)).socket;
  } catch (e) {
    return failed(`${tls ? "TLS handshake with" : "connect to"} port ${port} failed: ${(e as Error).message}`);
  }
  try {
    if (secured) {
      const verdict = judgeCertificate(secured, rules);
      if (verdict.days !== null) extra.push({ metric: "cert_days_remaining", value: verdict.days });
      if (!verdict.ok) return failed(verdict.problem, elapsed(start), extra);
      if (secured.alpnProtocol !== "h2") return failed("the server did not agree to HTTP/2 (ALPN h2)", elapsed(start), extra);
      tlsSummary = `; ${secured.getProtocol() ?? "TLS"}, ${verdict.summary}`;
    }
    const host = spec.host.includes(":") && !spec.host.startsWith("[") ? `[${spec.host}]` : spec.host;
    const authority = tls && !rules.serverName.includes(":") ? rules.serverName : host;
    const answer = await healthCall(socket, `${tls ? "https" : "http"}://${authority}:${port}`, service, signal);
    const verdict = verdictOf(answer, service);
    return verdict.up ? succeeded(`${verdict.msg}${tlsSummary}`, elapsed(start), extra) : failed(verdict.msg, elapsed(start), extra);
  } catch (e) {
    return failed(`health check failed: ${(e as Error).message}`, signal.aborted ? null : elapsed(start), extra);
  } finally {
    socket.destroy();
  }
};
