// The Node OutboundHttp (shared/net/outbound.ts): one HTTP(S) request, buffered or streamed, no redirects followed (a 3xx is
// returned as it came), a fresh connection each time unless the request asks to reuse one (docs/adr/0484:
// kept-alive connections pooled per outbound policy, so a connection checked under one policy never
// serves a request made under another). The SSRF policy is enforced on the address each connection
// actually uses: a custom `lookup` refuses resolved addresses the policy forbids, so a name that
// resolves (or re-resolves, DNS rebinding) to loopback or metadata cannot pass. IP literals never reach
// `lookup`; checkOutboundUrl judges them first. A unix socketPath (the Docker engine) has no address.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { Agent as HttpAgent, type ClientRequest, request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { addressAllowed, checkOutboundHost, checkOutboundUrl, type OutboundPolicy } from "../shared/domain/net/outbound-policy.ts";
import {
  DEFAULT_OUTBOUND_MAX_BYTES,
  OutboundError,
  type OutboundHttp,
  type OutboundRequest,
  type OutboundResponse,
  outboundResponse,
  type OutboundStream,
} from "../shared/net/outbound.ts";
import type { HostResolver } from "../shared/net/resolved-host.ts";
import { settleOnce } from "./settle.ts";

/** Marks a lookup refused by the policy, so the request's error maps to "refused", not "connect". */
class PolicyRefusal extends Error {
  readonly code = "EOUTBOUNDPOLICY";
}

/** Every address a name resolves to (the system resolver, as a connection would use it). */
export type Resolve = (hostname: string, family: number) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname, family) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, family }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** The addresses of `hostname` the policy allows (a PolicyRefusal when none is). */
async function allowedAddresses(hostname: string, policy: OutboundPolicy, family: number, resolveName: Resolve): Promise<LookupAddress[]> {
  const addresses = await resolveName(hostname, family);
  const allowed = addresses.filter((a) => addressAllowed(a.address, policy) === null);
  if (allowed.length > 0) return allowed;
  const reason = addresses.length ? addressAllowed(addresses[0]!.address, policy) : "no address";
  throw new PolicyRefusal(`${hostname} resolves to a refused address (${reason})`);
}

/** A connection's lookup keeping only the addresses the policy allows; none left is a PolicyRefusal. */
export function policyLookup(policy: OutboundPolicy, resolveName: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    allowedAddresses(hostname, policy, options.family === 4 || options.family === 6 ? options.family : 0, resolveName).then(
      (allowed) => {
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
        callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 4),
    );
  };
}

/**
 * For a client that cannot take a custom lookup (SMTP through nodemailer): the one address to connect
 * to, checked against the policy, so the caller pins it (and keeps the name for TLS). OutboundError
 * "refused" when the policy forbids it, "connect" when the name does not resolve.
 */
export async function pinAllowedAddress(host: string, policy: OutboundPolicy, resolveName: Resolve = systemResolve): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const literal = checkOutboundHost(bare, policy);
  if (literal !== null) throw new OutboundError("refused", `${literal}.`);
  if (isIP(bare)) return bare;
  try {
    return (await allowedAddresses(bare, policy, 0, resolveName))[0]!.address;
  } catch (e) {
    throw mapError(e, bare);
  }
}

const TLS_CODES = /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|HOSTNAME_MISMATCH|EPROTO)/;

/** An operator-safe error: the destination (host, never path or query) and the system's code. */
function mapError(e: unknown, where: string): OutboundError {
  if (e instanceof OutboundError) return e;
  if (e instanceof PolicyRefusal) return new OutboundError("refused", `${e.message}.`);
  const code = String((e as { code?: unknown }).code ?? "");
  if (TLS_CODES.test(code)) return new OutboundError("tls", `TLS with ${where} failed: ${code}.`);
  return new OutboundError("connect", `Could not reach ${where}: ${code || (e as Error).message || "connection failed"}.`);
}

function headerRecord(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

type Outcome = { response: OutboundResponse } | { error: OutboundError } | "expired";

interface Prepared {
  options: RequestOptions & { rejectUnauthorized?: boolean; ca?: string; cert?: string; key?: string; servername?: string };
  body: Buffer | undefined;
  tls: boolean;
  /** The destination as an operator may see it: the host, never path or query. */
  where: string;
}

/**
 * The pools of kept-alive connections of one OutboundHttp, one per (scheme, policy): the policy's lookup
 * judges each new connection's address, and a pooled connection only ever serves requests made under the
 * policy it was checked with. An idle connection closes before the receiver's own keep-alive timeout
 * (Node reads its `Keep-Alive: timeout` hint; 4 s when it gives none, under common servers' 5 s).
 */
type Pools = Map<string, HttpAgent>;
const IDLE_MS = 4000;

function pooledAgent(pools: Pools, tls: boolean, policy: OutboundPolicy): HttpAgent {
  const key = `${tls ? "https" : "http"} ${JSON.stringify(policy)}`;
  let agent = pools.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_MS, maxSockets: 32, maxFreeSockets: 8, scheduling: "lifo" as const };
    agent = tls ? new HttpsAgent(options) : new HttpAgent(options);
    pools.set(key, agent);
  }
  return agent;
}

/** Checks the URL against the policy and builds the request's options (the policy's lookup included). */
function prepare(req: OutboundRequest, resolveName: Resolve | undefined, pools: Pools): Prepared {
  // With a socket path the URL names only the request path; the host is not connected to.
  const check = req.socketPath
    ? checkOutboundUrl(req.url, { allow_private: true, allow_loopback: true }, { schemes: ["http"] })
    : checkOutboundUrl(req.url, req.policy);
  if (!check.ok) throw new OutboundError("refused", check.message);
  const url = check.url;
  const where = req.socketPath ? "the unix socket" : url.host;
  if (req.signal?.aborted) throw new OutboundError("aborted", `The request to ${where} was cancelled.`);
  const tls = url.protocol === "https:";
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // A known length rather than chunked encoding: some receivers refuse chunked POSTs.
  const body = req.body === undefined ? undefined : typeof req.body === "string" ? Buffer.from(req.body) : Buffer.from(req.body);
  const options: Prepared["options"] = {
    method: req.method ?? "GET",
    path: `${url.pathname}${url.search}`,
    headers: { host: url.host, ...(body ? { "content-length": String(body.byteLength) } : {}), ...req.headers },
    agent: req.reuseConnection && !req.socketPath ? pooledAgent(pools, tls, req.policy) : false,
    ...(req.socketPath
      ? { socketPath: req.socketPath }
      : { host: hostname, port: url.port ? Number(url.port) : tls ? 443 : 80, lookup: policyLookup(req.policy, resolveName) }),
  };
  if (tls) {
    options.rejectUnauthorized = req.verifySsl !== false;
    if (req.caPem) options.ca = req.caPem;
    if (req.clientCertPem && req.clientKeyPem) {
      options.cert = req.clientCertPem;
      options.key = req.clientKeyPem;
    }
  }
  return { options, body, tls, where };
}

function send(req: OutboundRequest, resolveName: Resolve | undefined, pools: Pools): Promise<OutboundResponse> {
  const started = performance.now();
  const maxBytes = req.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
  let prepared: Prepared;
  try {
    prepared = prepare(req, resolveName, pools);
  } catch (e) {
    return Promise.reject(e as Error);
  }
  const { options, body, tls, where } = prepared;
  return new Promise<Outcome>((resolve) => {
    const finish = settleOnce<Outcome>(resolve, {
      fallback: "expired",
      timeoutMs: req.timeoutMs,
      signal: req.signal,
      release: () => request?.destroy(),
    });
    let request: ClientRequest | undefined;
    const onResponse = (res: IncomingMessage) => {
      const declared = Number(res.headers["content-length"]);
      const tooLarge = () =>
        finish({ error: new OutboundError("too_large", `The answer from ${where} is larger than ${maxBytes} bytes.`) });
      if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) return tooLarge();
        chunks.push(c);
      });
      res.on("end", () => {
        const body = new Uint8Array(Buffer.concat(chunks, size));
        finish({ response: outboundResponse(res.statusCode ?? 0, headerRecord(res), body, Math.round(performance.now() - started)) });
      });
      res.on("error", (e) => finish({ error: mapError(e, where) }));
    };
    try {
      request = tls ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
    } catch (e) {
      // Node refuses a header value with a line break or an invalid method before sending anything.
      return finish({
        error: new OutboundError(
          "unsupported",
          `The request to ${where} could not be sent: ${String((e as { code?: unknown }).code ?? "invalid request")}.`,
        ),
      });
    }
    request.on("error", (e) => finish({ error: mapError(e, where) }));
    request.end(body);
  }).then((outcome) => {
    if (outcome === "expired") {
      if (req.signal?.aborted) throw new OutboundError("aborted", `The request to ${where} was cancelled.`);
      throw new OutboundError("timeout", `${where} did not answer within ${req.timeoutMs} ms.`);
    }
    if ("error" in outcome) throw outcome.error;
    return outcome.response;
  });
}

/** The HostResolver saved hosts are judged with (shared/net/resolved-host.ts): the resolver connections use. */
export function nodeHostResolver(resolveName: Resolve = systemResolve): HostResolver {
  return async (host) => (await resolveName(host, 0)).map((a) => a.address);
}

/**
 * The request with its body streamed: the deadline and the signal destroy the request (failing the
 * connection or the body with the matching OutboundError), and the byte count fails the body past
 * maxBytes. One `end` path (finished, failed, cancelled) clears the timer and the listener.
 */
async function sendStream(req: OutboundRequest, resolveName: Resolve | undefined, pools: Pools): Promise<OutboundStream> {
  const maxBytes = req.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
  const { options, body, tls, where } = prepare(req, resolveName, pools);
  let request: ClientRequest | undefined;
  let res: IncomingMessage | undefined;
  // Before the answer the request carries the error; after it, the body (whose reader then throws it).
  const stop = (error: OutboundError) => (res ? res.destroy(error) : request?.destroy(error));
  const onAbort = () => stop(new OutboundError("aborted", `The request to ${where} was cancelled.`));
  const timer = setTimeout(() => stop(new OutboundError("timeout", `${where} did not answer within ${req.timeoutMs} ms.`)), req.timeoutMs);
  req.signal?.addEventListener("abort", onAbort, { once: true });
  const end = () => {
    clearTimeout(timer);
    req.signal?.removeEventListener("abort", onAbort);
  };
  try {
    res = await new Promise<IncomingMessage>((resolve, reject) => {
      try {
        request = tls ? httpsRequest(options, resolve) : httpRequest(options, resolve);
      } catch (e) {
        return reject(
          new OutboundError(
            "unsupported",
            `The request to ${where} could not be sent: ${String((e as { code?: unknown }).code ?? "invalid request")}.`,
          ),
        );
      }
      request.on("error", (e) => reject(mapError(e, where)));
      request.end(body);
    });
  } catch (e) {
    end();
    request?.destroy();
    throw mapError(e, where);
  }
  const tooLarge = () => new OutboundError("too_large", `The answer from ${where} is larger than ${maxBytes} bytes.`);
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    end();
    request?.destroy();
    throw tooLarge();
  }
  const answer = res;
  const chunks = answer[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let size = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await chunks.next();
        if (done) {
          end();
          return controller.close();
        }
        size += value.length;
        if (size > maxBytes) throw tooLarge();
        controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      } catch (e) {
        end();
        request?.destroy();
        controller.error(mapError(e, where));
      }
    },
    cancel() {
      end();
      request?.destroy();
    },
  });
  return { status: answer.statusCode ?? 0, headers: headerRecord(answer), body: stream };
}

/** `resolve` replaces the system resolver (tests: a name that resolves to loopback, as a rebinding DNS would). */
export function nodeOutboundHttp(options: { resolve?: Resolve } = {}): OutboundHttp {
  const pools: Pools = new Map();
  return { request: (req) => send(req, options.resolve, pools), stream: (req) => sendStream(req, options.resolve, pools) };
}
