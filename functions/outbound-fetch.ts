// The edge's OutboundHttp: fetch, which on workerd cannot skip certificate checks, trust a custom CA or
// speak over a unix socket (those answer "unsupported"), and does not expose the address it connects
// to, so only the URL is checked against the policy here (the platform's own egress rules do the rest).
import { checkOutboundUrl } from "../shared/domain/net/outbound-policy.ts";
import {
  DEFAULT_OUTBOUND_MAX_BYTES,
  OutboundError,
  type OutboundHttp,
  type OutboundRequest,
  type OutboundResponse,
  outboundResponse,
  type OutboundStream,
} from "../shared/net/outbound.ts";

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

/** Refuses what fetch cannot do and what the policy forbids; answers the checked URL and its host. */
function check(req: OutboundRequest): { url: URL; where: string } {
  if (req.verifySsl === false || req.caPem || req.socketPath || req.clientCertPem) {
    throw new OutboundError(
      "unsupported",
      "This runtime cannot skip certificate checks, trust a custom CA, present a client certificate or use a unix socket; run the request from the Node sidecar.",
    );
  }
  const checked = checkOutboundUrl(req.url, req.policy);
  if (!checked.ok) throw new OutboundError("refused", checked.message);
  const where = checked.url.host;
  if (req.signal?.aborted) throw new OutboundError("aborted", `The request to ${where} was cancelled.`);
  return { url: checked.url, where };
}

/** fetch with the deadline and the caller's signal; `failure` maps what fetch or its body throws. */
async function fetchChecked(req: OutboundRequest, url: URL, where: string) {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const failure = (e: unknown): OutboundError => {
    if (e instanceof OutboundError) return e;
    if (req.signal?.aborted) return new OutboundError("aborted", `The request to ${where} was cancelled.`);
    if (timeout.aborted) return new OutboundError("timeout", `${where} did not answer within ${req.timeoutMs} ms.`);
    return new OutboundError("connect", `Could not reach ${where}.`);
  };
  try {
    // A copy into a plain ArrayBuffer: BodyInit does not take a view over a shared buffer.
    const body = typeof req.body === "string" || req.body === undefined ? req.body : req.body.slice().buffer;
    const res = await fetch(url, { method: req.method ?? "GET", headers: req.headers, body, redirect: "manual", signal });
    return { res, failure };
  } catch (e) {
    throw failure(e);
  }
}

const headerRecord = (res: Response) => {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return headers;
};

async function send(req: OutboundRequest): Promise<OutboundResponse> {
  const { url, where } = check(req);
  const started = performance.now();
  const { res, failure } = await fetchChecked(req, url, where);
  try {
    const received = await readCapped(res, req.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES, where);
    return outboundResponse(res.status, headerRecord(res), received, Math.round(performance.now() - started));
  } catch (e) {
    throw failure(e);
  }
}

/** The body as it arrives, counted against maxBytes; the deadline (from the request) bounds the download. */
async function sendStream(req: OutboundRequest): Promise<OutboundStream> {
  const { url, where } = check(req);
  const maxBytes = req.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
  const { res, failure } = await fetchChecked(req, url, where);
  const tooLarge = () => new OutboundError("too_large", `The answer from ${where} is larger than ${maxBytes} bytes.`);
  if (Number(res.headers.get("content-length")) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const reader = res.body?.getReader();
  let size = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = reader ? await reader.read() : { done: true as const, value: undefined };
        if (next.done) return controller.close();
        size += next.value.byteLength;
        if (size > maxBytes) throw tooLarge();
        controller.enqueue(next.value);
      } catch (e) {
        await reader?.cancel().catch(() => {});
        controller.error(failure(e));
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
  return { status: res.status, headers: headerRecord(res), body };
}

export function fetchOutboundHttp(): OutboundHttp {
  return { request: send, stream: sendStream };
}
