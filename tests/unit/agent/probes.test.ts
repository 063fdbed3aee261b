// The agent's probe runner against loopback targets: tcp and http up and down, icmp answered as not
// supported, deadlines, probe.cancel, max_concurrent; every result passes the sidecar's schema. And the
// hello it sends.
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { randomBytes } from "node:crypto";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HelloPayload, ProbeResultPayload } from "../../../shared/agents/payloads.ts";
import { silentLog } from "../../../agent/log.ts";
import { type ProbeResult, ProbeRunner } from "../../../agent/probes/runner.ts";
import { hostFacts, readinessOfHost } from "../../../agent/host.ts";
import { buildHello } from "../../../agent/payloads.ts";

let tcp: TcpServer;
let http: Server;
let tcpPort = 0;
let httpPort = 0;
let closedPort = 0;

beforeAll(async () => {
  tcp = createTcpServer((s) => s.end());
  await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
  tcpPort = (tcp.address() as { port: number }).port;
  http = createHttpServer((req, res) => {
    if (req.url === "/slow") return void setTimeout(() => res.end("late"), 5000);
    if (req.url === "/moved") return void res.writeHead(302, { location: "/" }).end();
    res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "text/plain" }).end("hello probe");
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  httpPort = (http.address() as { port: number }).port;
  const spare = createTcpServer();
  await new Promise<void>((r) => spare.listen(0, "127.0.0.1", r));
  closedPort = (spare.address() as { port: number }).port;
  await new Promise((r) => spare.close(r));
});

afterAll(async () => {
  http.closeAllConnections();
  await Promise.all([new Promise((r) => tcp.close(r)), new Promise((r) => http.close(r))]);
});

function runner(max = 20) {
  const results: ProbeResult[] = [];
  const r = new ProbeRunner({ log: silentLog, report: (x) => results.push(x) });
  r.maxConcurrent = max;
  return { r, results };
}

const assign = (check_type: string, config: Record<string, unknown>, deadlineMs = 5000) => ({
  run_id: randomBytes(16).toString("hex"),
  monitor_id: 7,
  check_type,
  host: "127.0.0.1",
  config,
  scheduled_at: new Date().toISOString(),
  deadline_at: new Date(Date.now() + deadlineMs).toISOString(),
});

async function settle(results: ProbeResult[], n: number): Promise<void> {
  const until = Date.now() + 8000;
  while (results.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  for (const x of results) expect(v.safeParse(ProbeResultPayload, x).success, JSON.stringify(x)).toBe(true);
}

const sample = (r: ProbeResult, metric: string) => r.samples?.find((s) => s.metric === metric)?.value;

describe("ProbeRunner", () => {
  it("tcp: an open port is up with its latency, a closed one down", async () => {
    const { r, results } = runner();
    const up = assign("tcp", { port: tcpPort });
    r.assign(up);
    r.assign(assign("tcp", { ports: [closedPort] }));
    await settle(results, 2);
    const a = results.find((x) => x.run_id === up.run_id)!;
    const b = results.find((x) => x.run_id !== up.run_id)!;
    expect(a).toMatchObject({ outcome: "completed", up: true, monitor_id: 7 });
    expect(sample(a, "latency_ms")).toBeGreaterThanOrEqual(0);
    expect(b).toMatchObject({ outcome: "completed", up: false });
    expect(b.msg).toMatch(/ECONNREFUSED/);
  });

  it("http: status, accepted_statuses, keyword and redirects", async () => {
    const { r, results } = runner();
    const base = `http://127.0.0.1:${httpPort}`;
    const runs = {
      root: assign("http", { url: `${base}/`, keyword: "hello" }),
      missing: assign("http", { url: `${base}/missing` }),
      moved: assign("http", { url: `${base}/moved` }),
    };
    for (const run of Object.values(runs)) r.assign(run);
    await settle(results, 3);
    const of = (x: { run_id: string }) => results.find((y) => y.run_id === x.run_id)!;
    expect(of(runs.root)).toMatchObject({ outcome: "completed", up: true });
    expect(sample(of(runs.root), "http_status")).toBe(200);
    expect(of(runs.missing)).toMatchObject({ outcome: "completed", up: false });
    expect(of(runs.missing).msg).toMatch(/^status 404 not accepted/);
    expect(results.filter((x) => x.up)).toHaveLength(2); // the redirect was followed to /
  });

  it("http: a URL naming another host than the assigned one is not fetched", async () => {
    const { r, results } = runner();
    r.assign(assign("http", { url: "http://192.0.2.1/" }));
    await settle(results, 1);
    expect(results[0]).toMatchObject({ outcome: "execution_error", up: false });
    expect(results[0]!.msg).toMatch(/not the assigned host/);
  });

  it("icmp is answered as not supported; a passed deadline is not run", async () => {
    const { r, results } = runner();
    r.assign(assign("icmp", {}));
    r.assign(assign("tcp", { port: tcpPort }, -1000));
    await settle(results, 2);
    expect(results[0]).toMatchObject({ outcome: "execution_error", msg: "icmp is not supported by this agent" });
    expect(results[1]).toMatchObject({ outcome: "execution_error", msg: "the deadline passed before the probe started" });
  });

  it("honours the deadline, probe.cancel and max_concurrent", async () => {
    const { r, results } = runner(2);
    const slow = (ms: number) => assign("http", { url: `http://127.0.0.1:${httpPort}/slow`, timeout: 30 }, ms);
    const a = slow(300);
    const b = slow(5000);
    const c = slow(5000);
    r.assign(a);
    r.assign(b);
    r.assign(c); // a third while two run
    expect(r.active).toBe(2);
    r.cancel(b.run_id, "monitor_paused");
    await settle(results, 3);
    const of = (x: { run_id: string }) => results.find((y) => y.run_id === x.run_id)!;
    expect(of(c)).toMatchObject({ outcome: "rejected", up: false });
    expect(of(b)).toMatchObject({ outcome: "cancelled", up: false, msg: "cancelled: monitor_paused" });
    expect(of(a)).toMatchObject({ outcome: "execution_error", msg: "the deadline passed while the probe ran" });
    // A re-sent assignment of a run already answered is not run again.
    r.assign(a);
    await new Promise((res) => setTimeout(res, 50));
    expect(results).toHaveLength(3);
  });
});

describe("hello", () => {
  it("describes this machine in a payload the sidecar's schema accepts", () => {
    const hello = buildHello({ ...hostFacts(), device_pk: "ab".repeat(32), readiness: readinessOfHost(), spool_depth: 0 });
    const parsed = v.safeParse(HelloPayload, hello);
    expect(parsed.success, JSON.stringify(parsed.issues?.[0])).toBe(true);
    expect(hello.capability_schema).toBe(2);
    expect(hello.networks!.some((n) => n.addrs!.includes("127.0.0.1/8"))).toBe(true);
    expect(hello.readiness!.map((r) => `${r.collector}:${r.state}`)).toEqual(
      expect.arrayContaining(["host_telemetry:ready", "probe.tcp:ready", "probe.http:ready", "probe.icmp:unavailable"]),
    );
  });
});
