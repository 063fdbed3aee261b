// Every outbound request an operator configured (integrations, notification sinks) goes through one
// OutboundHttp, which enforces the SSRF policy on the address it actually connects to. Types only
// (and the error class), so functions/ and shared/ can depend on it without node: modules; the Node
// implementation is net/outbound-http.ts, the edge's functions/outbound-fetch.ts.
import type { OutboundPolicy } from "../domain/net/outbound-policy.ts";

export interface OutboundRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Covers connect, TLS and the whole response. */
  timeoutMs: number;
  /** Default 8 MiB; a larger body fails with "too_large". */
  maxBytes?: number;
  /** false accepts any certificate (a homelab's self-signed one); default true. */
  verifySsl?: boolean;
  /** A PEM CA bundle trusted for this request (instead of the system roots). */
  caPem?: string | null;
  /** A client certificate and its key (PEM) presented over TLS: a Docker engine run with --tlsverify. */
  clientCertPem?: string | null;
  clientKeyPem?: string | null;
  /** A unix socket to speak HTTP over (the Docker engine); the URL then names only the path. */
  socketPath?: string | null;
  signal?: AbortSignal;
  policy: OutboundPolicy;
  /**
   * Keep the connection open for the next request to the same place (docs/adr/0484):
   * for senders that talk to one receiver often (notification deliveries, a hypervisor's API). Never for a
   * monitor's check, which measures a fresh connection (DNS, connect, TLS) each time. Default false.
   */
  reuseConnection?: boolean;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Uint8Array;
  text(): string;
  json<T = unknown>(): T;
  elapsedMs: number;
}

export type OutboundErrorCode = "refused" | "timeout" | "tls" | "connect" | "too_large" | "aborted" | "unsupported";

/** The message is safe to show an operator: never credentials, never a response body. */
export class OutboundError extends Error {
  readonly code: OutboundErrorCode;

  constructor(code: OutboundErrorCode, message: string) {
    super(message);
    this.name = "OutboundError";
    this.code = code;
  }
}

/** A response whose body is read as it arrives (a large download), not buffered. */
export interface OutboundStream {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /**
   * Errors with an OutboundError: "too_large" past maxBytes, "timeout" past timeoutMs (counted from the
   * request, so it bounds the whole download), "aborted" on the signal. Cancel it when not read to the end.
   */
  body: ReadableStream<Uint8Array>;
}

export interface OutboundHttp {
  request(req: OutboundRequest): Promise<OutboundResponse>;
  /** The same request (the same policy checks) with the body streamed. */
  stream(req: OutboundRequest): Promise<OutboundStream>;
}

export const DEFAULT_OUTBOUND_MAX_BYTES = 8 * 1024 * 1024;

/** The response both implementations hand back (and test fakes may build). */
export function outboundResponse(status: number, headers: Record<string, string>, body: Uint8Array, elapsedMs: number): OutboundResponse {
  const text = () => new TextDecoder().decode(body);
  return { status, headers, body, elapsedMs, text, json: <T>() => JSON.parse(text()) as T };
}
