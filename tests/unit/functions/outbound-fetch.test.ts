// The edge's fetch-based OutboundHttp, run on Node against a loopback peer: the URL policy, the TLS
// and socket options it cannot honour, the size cap, timeout and cancel, and no redirect followed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchOutboundHttp } from "../../../functions/outbound-fetch.ts";
import { DEFAULT_OUTBOUND_POLICY } from "../../../shared/domain/net/outbound-policy.ts";
import { OutboundError, type OutboundRequest } from "../../../shared/net/outbound.ts";
import { type HttpPeer, startHttpPeer } from "../../sidecar/monitors/peers.ts";

const LAB = { ...DEFAULT_OUTBOUND_POLICY, allow_loopback: true };
const http = fetchOutboundHttp();
let peer: HttpPeer;
beforeAll(async () => {
  peer = await startHttpPeer({ host: "127.0.0.3" });
  peer.on("/ok", (req, body) => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ method: req.method, body }),
  }));
  peer.on("/moved", { status: 301, headers: { location: "/ok" } });
  peer.on("/big", { status: 200, body: "z".repeat(4000) });
  peer.on("/hang", { hang: true });
});
afterAll(async () => peer?.close());

const send = (path: string, extra: Partial<OutboundRequest> = {}) =>
  http.request({ url: `${peer.url}${path}`, timeoutMs: 3000, policy: LAB, ...extra });
const code = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => (e instanceof OutboundError ? e.code : String(e)),
  );

describe("fetchOutboundHttp", () => {
  it("sends and answers like the Node client", async () => {
    const res = await send("/ok", { method: "POST", body: "hi" });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ method: "POST", body: "hi" });
    expect(res.headers["content-type"]).toBe("application/json");
    expect((await send("/moved")).status).toBe(301);
  });

  it("refuses by the URL policy, and answers unsupported for what fetch cannot do", async () => {
    expect(await code(send("/ok", { policy: DEFAULT_OUTBOUND_POLICY }))).toBe("refused");
    expect(
      await code(http.request({ url: "http://169.254.169.254/", timeoutMs: 1000, policy: { allow_private: true, allow_loopback: true } })),
    ).toBe("refused");
    expect(await code(send("/ok", { verifySsl: false }))).toBe("unsupported");
    expect(await code(send("/ok", { caPem: "-----BEGIN CERTIFICATE-----" }))).toBe("unsupported");
    expect(await code(send("/ok", { socketPath: "/var/run/docker.sock" }))).toBe("unsupported");
    expect(peer.seen.filter((s) => s.path === "/ok")).toHaveLength(1);
  });

  it("streams a body under the same policy, cap and deadline", async () => {
    const stream = (path: string, extra: Partial<OutboundRequest> = {}) =>
      http.stream({ url: `${peer.url}${path}`, timeoutMs: 3000, policy: LAB, ...extra });
    const ok = await stream("/big", { maxBytes: 4000 });
    expect(ok.status).toBe(200);
    expect(await new Response(ok.body).text()).toBe("z".repeat(4000));
    // Refused when the declared length is too large, else while the body is read.
    expect(await code(stream("/big", { maxBytes: 1000 }).then((r) => new Response(r.body).arrayBuffer()))).toBe("too_large");
    expect(await code(stream("/ok", { policy: DEFAULT_OUTBOUND_POLICY }))).toBe("refused");
    expect(await code(stream("/hang", { timeoutMs: 150 }))).toBe("timeout");
  });

  it("caps the body, times out and cancels", async () => {
    expect(await code(send("/big", { maxBytes: 1000 }))).toBe("too_large");
    expect(await code(send("/hang", { timeoutMs: 150 }))).toBe("timeout");
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    expect(await code(send("/hang", { signal: ac.signal }))).toBe("aborted");
  });
});
