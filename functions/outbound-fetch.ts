// The edge's OutboundHttp: fetch, which on workerd cannot skip certificate checks, trust a custom CA or
// speak over a unix socket (those answer "unsupported"), and does not expose the address it connects
// to, so only the URL is checked against the policy here (the platform's own egress rules do the rest).
import { checkOutboundUrl } from "../shared/domain/net/outbound-policy.ts";
import { DEFAULT_OUTBOUND_MAX_BYTES, OutboundError, type OutboundHttp, type OutboundRequest, type OutboundResponse, outboundResponse } from "../shared/net/outbound.ts";

async function readCapped(res: Response, maxBytes: number, where: string): Promise<Uint8Array> {
  const tooLarge = () => new OutboundError("too_large", `The answer from ${where} is larger than ${maxBytes} bytes.`);
  if (Number(res.headers.get("content-length")) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

async function send(req: OutboundRequest): Promise<OutboundResponse> {
  if (req.verifySsl === false || req.caPem || req.socketPath || req.clientCertPem) {
    throw new OutboundError("unsupported", "This runtime cannot skip certificate checks, trust a custom CA, present a client certificate or use a unix socket; run the request from the Node sidecar.");
  }
  const check = checkOutboundUrl(req.url, req.policy);
  if (!check.ok) throw new OutboundError("refused", check.message);
  const where = check.url.host;
  if (req.signal?.aborted) throw new OutboundError("aborted", `The request to ${where} was cancelled.`);
  const started = performance.now();
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  try {
    // A copy into a plain ArrayBuffer: BodyInit does not take a view over a shared buffer.
    const body = typeof req.body === "string" || req.body === undefined ? req.body : req.body.slice().buffer;
    const res = await fetch(check.url, { method: req.method ?? "GET", headers: req.headers, body, redirect: "manual", signal });
    const received = await readCapped(res, req.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES, where);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    return outboundResponse(res.status, headers, received, Math.round(performance.now() - started));
  } catch (e) {
    if (e instanceof OutboundError) throw e;
    if (req.signal?.aborted) throw new OutboundError("aborted", `The request to ${where} was cancelled.`);
    if (timeout.aborted) throw new OutboundError("timeout", `${where} did not answer within ${req.timeoutMs} ms.`);
    throw new OutboundError("connect", `Could not reach ${where}.`);
  }
}

export function fetchOutboundHttp(): OutboundHttp {
  return { request: send };
}
