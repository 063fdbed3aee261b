// The check executors against real loopback peers: HTTP(S) with programmable answers and a self-signed
// certificate, a TCP listener, a DNS server (dns2) on 127.0.0.53, and the system ping on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { icmpOutcome } from "../../../net/checks/icmp.ts";
import { parsePing } from "../../../net/ping-output.ts";
import { jsonPathValue } from "../../../net/checks/json-path.ts";
import { runCheck } from "../../../net/checks/run-check.ts";
import {
  closedPort,
  type DnsPeer,
  type HttpPeer,
  selfSignedCert,
  startDnsPeer,
  startHttpPeer,
  startTcpPeer,
  type TcpPeer,
} from "./peers.ts";

const metric = (samples: { metric: string; value: number | null }[], name: string) => samples.find((s) => s.metric === name)?.value;

let http: HttpPeer;
let https: HttpPeer;
let tcp: TcpPeer;
let dns: DnsPeer;

beforeAll(async () => {
  http = await startHttpPeer();
  https = await startHttpPeer({ tls: selfSignedCert(30) });
  tcp = await startTcpPeer();
  dns = await startDnsPeer({
    "svc.lab.test": { A: ["10.0.0.5", "10.0.0.6"], TXT: ["v=spf1 -all"] },
    "lab.test": { MX: [{ exchange: "mail.lab.test", priority: 10 }] },
  });
});
afterAll(async () => {
  await Promise.all([http?.close(), https?.close(), tcp?.close(), dns?.close()]);
});

describe("http check", () => {
  const check = (config: Record<string, unknown>) => runCheck({ check_type: "http", host: "127.0.0.1", config });

  it("is up on an accepted status, with latency and http_status samples", async () => {
    http.on("/ok", { status: 200, body: "all good" });
    const r = await check({ url: `${http.url}/ok` });
    expect(r.up).toBe(true);
    expect(r.latency_ms).toBeGreaterThanOrEqual(0);
    expect(metric(r.samples, "avail")).toBe(1);
    expect(metric(r.samples, "http_status")).toBe(200);
    expect(r.msg).toBe("HTTP 200");
  });

  it("is down on a status outside accepted_statuses, up when a range or code accepts it", async () => {
    http.on("/teapot", { status: 418 });
    const down = await check({ url: `${http.url}/teapot` });
    expect(down.up).toBe(false);
    expect(down.msg).toContain("status 418 not accepted");
    expect(metric(down.samples, "avail")).toBe(0);
    expect((await check({ url: `${http.url}/teapot`, accepted_statuses: ["200-299", "418"] })).up).toBe(true);
    expect((await check({ url: `${http.url}/teapot`, accepted_statuses: ["400-499"] })).up).toBe(true);
  });

  it("sends the method, headers, body and basic or bearer auth", async () => {
    http.on("/echo", { status: 201 });
    const r = await check({
      url: `${http.url}/echo`,
      method: "POST",
      headers: { "x-probe": "yes" },
      body: '{"a":1}',
      auth_type: "basic",
      username: "u",
      password: "p",
    });
    expect(r.up).toBe(true);
    const seen = http.seen.at(-1)!;
    expect(seen.method).toBe("POST");
    expect(seen.headers["x-probe"]).toBe("yes");
    expect(seen.body).toBe('{"a":1}');
    expect(seen.headers.authorization).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`);
    await check({ url: `${http.url}/echo`, auth_type: "bearer", token: "tok" });
    expect(http.seen.at(-1)!.headers.authorization).toBe("Bearer tok");
  });

  it("checks a keyword and an inverted keyword", async () => {
    http.on("/page", { body: "<h1>Welcome</h1> status: healthy" });
    expect((await check({ url: `${http.url}/page`, keyword: "healthy" })).up).toBe(true);
    const missing = await check({ url: `${http.url}/page`, keyword: "degraded" });
    expect(missing.up).toBe(false);
    expect(missing.msg).toContain("not found");
    expect((await check({ url: `${http.url}/page`, keyword: "error", keyword_invert: true })).up).toBe(true);
    const present = await check({ url: `${http.url}/page`, keyword: "healthy", keyword_invert: true });
    expect(present.up).toBe(false);
    expect(present.msg).toContain("present");
  });

  it("compares a JSON path with the expected value", async () => {
    http.on("/api", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data: { items: [{ state: "ok", n: 3 }] } }),
    });
    expect((await check({ url: `${http.url}/api`, json_path: "data.items[0].state", expected_value: "ok" })).up).toBe(true);
    expect((await check({ url: `${http.url}/api`, json_path: "$.data.items[0].n", expected_value: "3" })).up).toBe(true);
    const wrong = await check({ url: `${http.url}/api`, json_path: "data.items[0].state", expected_value: "down" });
    expect(wrong.up).toBe(false);
    expect(wrong.msg).toContain('expected "down"');
    const absent = await check({ url: `${http.url}/api`, json_path: "data.items[5].state", expected_value: "ok" });
    expect(absent.msg).toContain("not found");
    http.on("/html", { body: "<html>" });
    expect((await check({ url: `${http.url}/html`, json_path: "a" })).msg).toContain("not JSON");
  });

  it("follows redirects up to the limit, and not at all when told not to", async () => {
    http.on("/r1", { status: 302, headers: { location: "/r2" } });
    http.on("/r2", { status: 301, headers: { location: `${http.url}/ok` } });
    http.on("/ok", { status: 200 });
    expect((await check({ url: `${http.url}/r1` })).up).toBe(true);
    const limited = await check({ url: `${http.url}/r1`, max_redirects: 1 });
    expect(limited.up).toBe(false);
    expect(limited.msg).toContain("too many redirects");
    const unfollowed = await check({ url: `${http.url}/r1`, follow_redirects: false });
    expect(unfollowed.up).toBe(false);
    expect(metric(unfollowed.samples, "http_status")).toBe(302);
    expect((await check({ url: `${http.url}/r1`, follow_redirects: false, accepted_statuses: ["300-399"] })).up).toBe(true);
  });

  it("refuses a self-signed certificate unless TLS is ignored, and reports the days it has left", async () => {
    https.on("/", { status: 200, body: "secure" });
    const refused = await check({ url: `${https.url}/` });
    expect(refused.up).toBe(false);
    expect(refused.msg).toMatch(/request failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED)/);
    const ignored = await check({ url: `${https.url}/`, verify_tls: false });
    expect(ignored.up).toBe(true);
    const days = metric(ignored.samples, "cert_days_remaining");
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(30);
    const soon = await check({ url: `${https.url}/`, verify_tls: false, cert_expiry_days: 60 });
    expect(soon.up).toBe(false);
    expect(soon.msg).toMatch(/certificate expires in \d+ days/);
  });

  it("a hanging target costs its own timeout and does not delay another check", async () => {
    http.on("/hang", { hang: true });
    http.on("/fast", { status: 200 });
    const started = performance.now();
    const [hung, fast] = await Promise.all([
      check({ url: `${http.url}/hang`, timeout: 0.5 }).then((r) => ({ r, ms: performance.now() - started })),
      check({ url: `${http.url}/fast` }).then((r) => ({ r, ms: performance.now() - started })),
    ]);
    expect(fast.r.up).toBe(true);
    expect(fast.ms).toBeLessThan(300);
    expect(hung.r.up).toBe(false);
    expect(hung.r.msg).toContain("timeout");
    expect(hung.ms).toBeGreaterThanOrEqual(450);
    expect(hung.ms).toBeLessThan(1500);
  });

  it("names a refused connection and a bad config instead of throwing", async () => {
    const port = await closedPort();
    const refused = await check({ url: `http://127.0.0.1:${port}/` });
    expect(refused.up).toBe(false);
    expect(refused.msg).toBe("request failed: ECONNREFUSED");
    expect((await check({ url: "ftp://x/" })).msg).toContain("invalid config");
    expect((await check({ url: `${http.url}/`, accepted_statuses: ["2xx"] })).msg).toContain("invalid config");
  });
});

describe("tcp check", () => {
  it("is up on the first open port and down naming each closed one", async () => {
    const closed = await closedPort();
    const up = await runCheck({ check_type: "tcp", host: "127.0.0.1", config: { ports: [closed, tcp.port] } });
    expect(up.up).toBe(true);
    expect(up.msg).toBe(`port ${tcp.port} open`);
    expect(metric(up.samples, "latency_ms")).toBeGreaterThanOrEqual(0);
    const down = await runCheck({ check_type: "tcp", host: "127.0.0.1", config: { port: closed } });
    expect(down.up).toBe(false);
    expect(down.msg).toBe(`no port open (${closed}: ECONNREFUSED)`);
  });

  it("times out on an address that never answers, within its timeout", async () => {
    const started = performance.now();
    // TEST-NET-1 is not routed: the SYN goes nowhere (or the route is refused at once): bounded either way.
    const r = await runCheck({ check_type: "tcp", host: "192.0.2.1", config: { port: 9, timeout: 0.3 } });
    expect(r.up).toBe(false);
    expect(performance.now() - started).toBeLessThan(1200);
  });
});

describe("dns check", () => {
  const check = (host: string, config: Record<string, unknown>) =>
    runCheck({ check_type: "dns", host, config: { resolver: dns.address, port: dns.port, ...config } });

  it("resolves A records through the configured resolver and compares expected answers", async () => {
    const r = await check("svc.lab.test", { expected_values: ["10.0.0.6"] });
    expect(r.up).toBe(true);
    expect(r.msg).toContain("10.0.0.5");
    const wrong = await check("svc.lab.test", { expected_values: ["10.0.0.9"] });
    expect(wrong.up).toBe(false);
    expect(wrong.msg).toContain("expected 10.0.0.9 not among");
  });

  it("resolves MX and TXT records", async () => {
    expect((await check("lab.test", { record_type: "MX", expected_values: ["mail.lab.test."] })).up).toBe(true);
    expect((await check("lab.test", { record_type: "MX", expected_values: ["10 mail.lab.test"] })).up).toBe(true);
    expect((await check("svc.lab.test", { record_type: "TXT", expected_values: ["v=spf1 -all"] })).up).toBe(true);
  });

  it("is down on NXDOMAIN, and on a silent server within its timeout", async () => {
    const missing = await check("nope.lab.test", {});
    expect(missing.up).toBe(false);
    expect(missing.msg).toContain("ENOTFOUND");
    const started = performance.now();
    const silent = await check("hang.lab.test", { timeout: 0.4 });
    expect(silent.up).toBe(false);
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe("icmp check", () => {
  it("pings 127.0.0.1 with the system ping: latency, loss and jitter samples", async () => {
    const r = await runCheck({ check_type: "icmp", host: "127.0.0.1", config: { packet_count: 2, timeout: 1 } });
    expect(r.msg).not.toContain("not installed");
    expect(r.up).toBe(true);
    expect(metric(r.samples, "packet_loss_pct")).toBe(0);
    expect(metric(r.samples, "latency_ms")).toBeGreaterThanOrEqual(0);
    expect(metric(r.samples, "jitter_ms")).toBeGreaterThanOrEqual(0);
  });

  it("fails naming the cause when ping is missing or not permitted", async () => {
    const missing = await runCheck({ check_type: "icmp", host: "127.0.0.1", config: {} }, { pingCommand: "/nonexistent/ping" });
    expect(missing.up).toBe(false);
    expect(missing.msg).toContain("ping command (/nonexistent/ping) is not installed");
    const denied = icmpOutcome(2, "", "ping: socktype: SOCK_RAW\nping: socket: Operation not permitted\n");
    expect(denied.up).toBe(false);
    expect(denied.msg).toContain("ping is not permitted here");
  });

  it("parses loss and round trips from ping's summary", () => {
    const out =
      "--- 10.0.0.1 ping statistics ---\n5 packets transmitted, 3 received, 40% packet loss, time 804ms\nrtt min/avg/max/mdev = 0.031/0.052/0.080/0.019 ms\n";
    expect(parsePing(out)).toEqual({ transmitted: 5, received: 3, loss_pct: 40, rtt: { min: 0.031, avg: 0.052, max: 0.08, mdev: 0.019 } });
    const none = icmpOutcome(1, "--- x ---\n3 packets transmitted, 0 received, 100% packet loss, time 2ms\n", "");
    expect(none.up).toBe(false);
    expect(none.samples).toContainEqual({ metric: "packet_loss_pct", value: 100 });
  });
});

describe("json path", () => {
  it("walks keys and indexes and renders non-strings as JSON", () => {
    expect(jsonPathValue('{"a":[{"b":true}]}', "a[0].b")).toEqual({ ok: true, text: "true" });
    expect(jsonPathValue('{"a":{"b":null}}', "a.b")).toEqual({ ok: true, text: "null" });
    expect(jsonPathValue("[1,2]", "[1]")).toEqual({ ok: true, text: "2" });
  });
});
