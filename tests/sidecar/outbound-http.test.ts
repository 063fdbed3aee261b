// The Node OutboundHttp against real listeners on 127.0.0.x: the policy on literal and resolved
// addresses, TLS (untrusted refused, custom CA, verifySsl off), size cap, timeout, cancel, unix socket.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeOutboundHttp, pinAllowedAddress, policyLookup, type Resolve } from "../../net/outbound-http.ts";
import { DEFAULT_OUTBOUND_POLICY, type OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import { OutboundError, type OutboundRequest } from "../../shared/net/outbound.ts";
import { closedPort, type HttpPeer, selfSignedCert, startHttpPeer } from "./monitors/peers.ts";

const LAB: OutboundPolicy = { ...DEFAULT_OUTBOUND_POLICY, allow_loopback: true };
const OPEN: OutboundPolicy = { allow_private: true, allow_loopback: true };
const http = nodeOutboundHttp();

let plain: HttpPeer;
let secure: HttpPeer;
let cert: { key: string; cert: string };
beforeAll(async () => {
  plain = await startHttpPeer({ host: "127.0.0.2" });
  cert = selfSignedCert();
  secure = await startHttpPeer({ tls: cert });
  plain.on("/hello", { status: 200, headers: { "content-type": "application/json", "x-a": "1" }, body: '{"hi":true}' });
  plain.on("/echo", (req, body) => ({ status: 201, body: `${req.method} ${body}` }));
  plain.on("/moved", { status: 302, headers: { location: "http://169.254.169.254/" }, body: "" });
  plain.on("/big", { status: 200, headers: { "content-type": "text/plain" }, body: "x".repeat(5000) });
  plain.on("/hang", { hang: true });
  secure.on("/", { status: 200, body: "secure" });
});
afterAll(async () => {
  await plain?.close();
  await secure?.close();
});

async function failure(req: Promise<unknown>): Promise<OutboundError> {
  const e = await req.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OutboundError);
  return e as OutboundError;
}

const get = (url: string, extra: Partial<OutboundRequest> = {}) => http.request({ url, timeoutMs: 3000, policy: LAB, ...extra });

describe("requests", () => {
  it("answers status, lower-case headers, body, text and json", async () => {
    const res = await get(`${plain.url}/hello`);
    expect(res.status).toBe(200);
    expect(res.headers["x-a"]).toBe("1");
    expect(res.json()).toEqual({ hi: true });
    expect(res.text()).toBe('{"hi":true}');
    expect(res.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it("sends the method, headers and body", async () => {
    const res = await get(`${plain.url}/echo`, { method: "POST", body: new TextEncoder().encode("payload"), headers: { "x-token": "t" } });
    expect(res.status).toBe(201);
    expect(res.text()).toBe("POST payload");
    expect(plain.seen.at(-1)!.headers["x-token"]).toBe("t");
  });

  it("refuses a header that would split the request, without sending", async () => {
    const before = plain.seen.length;
    const e = await failure(get(`${plain.url}/hello`, { headers: { "x-bad": "a\r\nx-injected: 1" } }));
    expect(e.code).toBe("unsupported");
    expect(plain.seen.length).toBe(before);
  });

  it("returns a redirect as it came instead of following it", async () => {
    const res = await get(`${plain.url}/moved`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("http://169.254.169.254/");
  });
});

describe("the policy", () => {
  it("refuses a loopback literal by default before connecting", async () => {
    const before = plain.seen.length;
    const e = await failure(get(`${plain.url}/hello`, { policy: DEFAULT_OUTBOUND_POLICY }));
    expect(e.code).toBe("refused");
    expect(e.message).toMatch(/allow_loopback/);
    expect(plain.seen.length).toBe(before);
  });

  it("refuses a name that resolves to loopback (DNS rebinding), and connects when loopback is allowed", async () => {
    const rebinding: Resolve = async () => [{ address: "127.0.0.2", family: 4 }];
    const client = nodeOutboundHttp({ resolve: rebinding });
    const url = `http://rebind.test:${plain.port}/hello`;
    const before = plain.seen.length;
    const e = await failure(client.request({ url, timeoutMs: 3000, policy: DEFAULT_OUTBOUND_POLICY }));
    expect(e.code).toBe("refused");
    expect(e.message).toMatch(/rebind\.test resolves to a refused address .*loopback/);
    expect(plain.seen.length).toBe(before);
    expect((await client.request({ url, timeoutMs: 3000, policy: LAB })).status).toBe(200);
  });

  it("never reaches a name that resolves to the metadata address, whatever the policy", async () => {
    const client = nodeOutboundHttp({ resolve: async () => [{ address: "169.254.169.254", family: 4 }] });
    const e = await failure(client.request({ url: "http://meta.test/latest/meta-data/", timeoutMs: 3000, policy: OPEN }));
    expect(e.code).toBe("refused");
    expect(e.message).toMatch(/metadata/);
    expect((await failure(http.request({ url: "http://169.254.169.254/", timeoutMs: 3000, policy: OPEN }))).code).toBe("refused");
  });

  it("the system resolver's localhost is refused by default; private follows the policy, link-local is always refused", async () => {
    const lookup = (policy: OutboundPolicy, resolve?: Resolve) =>
      new Promise<{ err: Error | null; address: string }>((done) =>
        policyLookup(policy, resolve)("localhost", { family: 4 }, (err, address) => done({ err, address: String(address) })),
      );
    expect((await lookup(DEFAULT_OUTBOUND_POLICY)).err?.message).toMatch(/localhost resolves to a refused address/);
    expect(await lookup(LAB)).toEqual({ err: null, address: "127.0.0.1" });
    const lan: Resolve = async () => [{ address: "192.168.1.20", family: 4 }];
    expect(await lookup(DEFAULT_OUTBOUND_POLICY, lan)).toEqual({ err: null, address: "192.168.1.20" });
    expect((await lookup({ ...DEFAULT_OUTBOUND_POLICY, allow_private: false }, lan)).err).not.toBeNull();
    const linkLocal: Resolve = async () => [{ address: "169.254.7.7", family: 4 }];
    expect((await lookup(DEFAULT_OUTBOUND_POLICY, linkLocal)).err?.message).toMatch(/link-local/);
    // Mixed answers: only the allowed addresses are offered to the connection.
    const mixed: Resolve = async () => [
      { address: "169.254.169.254", family: 4 },
      { address: "192.168.1.21", family: 4 },
    ];
    expect(await lookup(DEFAULT_OUTBOUND_POLICY, mixed)).toEqual({ err: null, address: "192.168.1.21" });
  });
});

describe("connection reuse (docs/adr/0484)", () => {
  it("a fresh connection per request unless asked; asked, one kept-alive connection serves them in turn", async () => {
    const client = nodeOutboundHttp();
    const url = `${plain.url}/hello`;
    let before = plain.connections();
    for (let i = 0; i < 3; i++) expect((await client.request({ url, timeoutMs: 3000, policy: LAB })).status).toBe(200);
    expect(plain.connections() - before).toBe(3);
    before = plain.connections();
    for (let i = 0; i < 3; i++)
      expect((await client.request({ url, timeoutMs: 3000, policy: LAB, reuseConnection: true })).status).toBe(200);
    expect(plain.connections() - before).toBe(1);
  });

  it("a connection checked under one policy never serves a request made under another", async () => {
    const client = nodeOutboundHttp({ resolve: async () => [{ address: "127.0.0.2", family: 4 }] });
    const url = `http://pooled.test:${plain.port}/hello`;
    const before = plain.connections();
    const seen = plain.seen.length;
    expect((await client.request({ url, timeoutMs: 3000, policy: LAB, reuseConnection: true })).status).toBe(200);
    // The kept connection reached loopback under LAB; under the default policy the name is judged afresh.
    const e = await failure(client.request({ url, timeoutMs: 3000, policy: DEFAULT_OUTBOUND_POLICY, reuseConnection: true }));
    expect(e.code).toBe("refused");
    expect(plain.seen.length).toBe(seen + 1);
    expect((await client.request({ url, timeoutMs: 3000, policy: LAB, reuseConnection: true })).status).toBe(200);
    expect(plain.connections() - before).toBe(1);
  });

  it("a kept-alive TLS connection is not shared with a request that would not trust the certificate", async () => {
    const client = nodeOutboundHttp();
    expect((await client.request({ url: secure.url, timeoutMs: 3000, policy: LAB, caPem: cert.cert, reuseConnection: true })).status).toBe(
      200,
    );
    const e = await failure(client.request({ url: secure.url, timeoutMs: 3000, policy: LAB, reuseConnection: true }));
    expect(e.code).toBe("tls");
  });
});

describe("pinAllowedAddress (clients without a custom lookup)", () => {
  it("answers the allowed address of a name or literal, refuses forbidden ones", async () => {
    expect(await pinAllowedAddress("localhost", LAB)).toBe("127.0.0.1");
    expect(await pinAllowedAddress("[::1]", LAB)).toBe("::1");
    expect((await failure(pinAllowedAddress("localhost", DEFAULT_OUTBOUND_POLICY))).code).toBe("refused");
    expect((await failure(pinAllowedAddress("127.0.0.1", DEFAULT_OUTBOUND_POLICY))).code).toBe("refused");
    expect(
      (await failure(pinAllowedAddress("mail.test", DEFAULT_OUTBOUND_POLICY, async () => [{ address: "127.0.0.5", family: 4 }]))).message,
    ).toMatch(/mail\.test resolves to a refused address/);
    expect(await pinAllowedAddress("mail.test", DEFAULT_OUTBOUND_POLICY, async () => [{ address: "10.0.0.25", family: 4 }])).toBe(
      "10.0.0.25",
    );
    expect((await failure(pinAllowedAddress("169.254.169.254", OPEN))).code).toBe("refused");
  });
});

describe("TLS", () => {
  it("refuses an untrusted self-signed certificate, accepts it with its CA or with verifySsl false", async () => {
    const e = await failure(get(`${secure.url}/`));
    expect(e.code).toBe("tls");
    expect((await get(`${secure.url}/`, { caPem: cert.cert })).text()).toBe("secure");
    expect((await get(`${secure.url}/`, { verifySsl: false })).text()).toBe("secure");
    const other = selfSignedCert();
    expect((await failure(get(`${secure.url}/`, { caPem: other.cert }))).code).toBe("tls");
  });
});

describe("limits", () => {
  it("fails too_large past maxBytes, declared or streamed", async () => {
    expect((await failure(get(`${plain.url}/big`, { maxBytes: 1000 }))).code).toBe("too_large");
    plain.on("/stream", (_req) => ({ status: 200, headers: { "transfer-encoding": "chunked" }, body: "y".repeat(5000) }));
    expect((await failure(get(`${plain.url}/stream`, { maxBytes: 1000 }))).code).toBe("too_large");
    expect((await get(`${plain.url}/big`, { maxBytes: 5000 })).body.byteLength).toBe(5000);
  });

  it("streams a body, failing it too_large past maxBytes, declared or counted; refuses by the policy before connecting", async () => {
    const stream = (url: string, extra: Partial<OutboundRequest> = {}) => http.stream({ url, timeoutMs: 3000, policy: LAB, ...extra });
    const whole = await stream(`${plain.url}/big`, { maxBytes: 5000 });
    expect(whole.status).toBe(200);
    expect((await new Response(whole.body).arrayBuffer()).byteLength).toBe(5000);
    // Refused when the declared length is too large, else while the body is read.
    const read = (p: Promise<{ body: ReadableStream<Uint8Array> }>) => p.then((r) => new Response(r.body).arrayBuffer());
    expect((await failure(read(stream(`${plain.url}/big`, { maxBytes: 1000 })))).code).toBe("too_large");
    plain.on("/stream", (_req) => ({ status: 200, headers: { "transfer-encoding": "chunked" }, body: "y".repeat(5000) }));
    expect((await failure(read(stream(`${plain.url}/stream`, { maxBytes: 1000 })))).code).toBe("too_large");
    expect((await failure(stream(`${plain.url}/big`, { policy: DEFAULT_OUTBOUND_POLICY }))).code).toBe("refused");
    expect((await failure(stream(`${plain.url}/hang`, { timeoutMs: 200 }))).code).toBe("timeout");
    expect((await failure(stream(`${plain.url}/hang`, { signal: AbortSignal.abort() }))).code).toBe("aborted");
  });

  it("times out a server that never answers, within the budget", async () => {
    const started = Date.now();
    const e = await failure(get(`${plain.url}/hang`, { timeoutMs: 200 }));
    expect(e.code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("answers aborted when the caller cancels", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    expect((await failure(get(`${plain.url}/hang`, { signal: ac.signal }))).code).toBe("aborted");
    expect((await failure(get(`${plain.url}/hang`, { signal: AbortSignal.abort() }))).code).toBe("aborted");
  });

  it("reports a refused connection without the path or query", async () => {
    const port = await closedPort();
    const e = await failure(get(`http://127.0.0.1:${port}/api?token=secret-value`));
    expect(e.code).toBe("connect");
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect(e.message).not.toContain("secret-value");
  });
});

describe("unix socket", () => {
  let server: Server;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "outbound-sock-"));
    server = createServer((req, res) => res.end(`sock ${req.url}`));
    await new Promise<void>((r) => server.listen(join(dir, "engine.sock"), r));
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("speaks HTTP over the socket; the URL's host is not connected to", async () => {
    const res = await http.request({
      url: "http://localhost/v1.43/_ping",
      socketPath: join(dir, "engine.sock"),
      timeoutMs: 3000,
      policy: DEFAULT_OUTBOUND_POLICY,
    });
    expect(res.text()).toBe("sock /v1.43/_ping");
    const missing = await failure(
      http.request({
        url: "http://localhost/_ping",
        socketPath: join(dir, "absent.sock"),
        timeoutMs: 3000,
        policy: DEFAULT_OUTBOUND_POLICY,
      }),
    );
    expect(missing.code).toBe("connect");
  });
});
