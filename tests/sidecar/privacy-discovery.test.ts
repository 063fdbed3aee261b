// Issue 17's test of the privacy rules: a real discovery run (the sidecar's discovery worker and scan
// engine) over loopback fake hosts with the risky ports open, on 127.0.0.111-118, with the banners real
// devices give: telnet (option negotiation, then a login prompt) and an HTTP admin page on a router
// already in the inventory, an FTP greeting, SMB/NetBIOS, a UPnP device description server (miniupnpd
// Server header) and a DVR page whose title is known for default credentials. The run's finish takes a
// snapshot; the new hosts are merged through the API and a refresh scores them all; the new findings go
// through a notification route to a webhook receiver on 127.0.0.119 (the delivery worker, signed). A real
// snmpd on 127.0.0.117 answers the default community "public", which the scan asks with.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoveryWorker, type DiscoveryWorker } from "../../sidecar/discovery/discovery-worker.ts";
import { type NotificationsWorker, notificationsWorker } from "../../sidecar/notifications/notifications-worker.ts";
import { createPrivacyActors, type PrivacyActors } from "../api/privacy/support.ts";
import { type Snmpd, startSnmpd } from "../helpers/snmpd.ts";

const HOST = (n: number) => `127.0.0.${n}`;
const PORTS = [21, 22, 23, 80, 139, 445, 1900, 5000];
const servers: (Server | HttpServer)[] = [];
const sockets = new Set<Socket>();

let a: PrivacyActors;
let scanner: DiscoveryWorker;
let notifier: NotificationsWorker;
let snmpd: Snmpd | undefined;
const SCAN = { targets: [`${HOST(111)}-${HOST(118)}`], scan_types: ["tcp", "banner", "http", "snmp"], tcp_ports: PORTS };
const received: { headers: IncomingMessage["headers"]; body: any }[] = [];
let hookUrl = "";

async function listen(server: Server | HttpServer, host: string, port: number): Promise<number> {
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("error", () => {}); // scanners reset connections
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  servers.push(server);
  return (server.address() as { port: number }).port;
}

/** Greets with `greeting` on connect (raw bytes allowed) and keeps the line open until the client goes. */
const greeting = (host: string, port: number, ...parts: (string | Buffer)[]) =>
  listen(
    createServer((s) => {
      for (const p of parts) s.write(p);
      s.resume();
    }),
    host,
    port,
  );

/** Says nothing until spoken to, then hangs up (SMB and NetBIOS ignore a stray HTTP request or TLS hello). */
const mute = (host: string, port: number) =>
  listen(
    createServer((s) => s.once("data", () => s.end())),
    host,
    port,
  );

/** A web server answering every request with `body` and `headers`. */
const web = (host: string, port: number, headers: Record<string, string>, body: string) =>
  listen(
    createHttpServer((_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    }),
    host,
    port,
  );

const UPNP_DESCRIPTION = `<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
<device><deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType><friendlyName>Lab IGD</friendlyName>
<manufacturer>Lab</manufacturer><modelName>IGD</modelName></device></root>`;

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let gateway = 0;
let jobId = 0;

beforeAll(async () => {
  a = await createPrivacyActors();
  // 127.0.0.111: a router already in the inventory: telnet with option negotiation, an HTTP admin page.
  await greeting(HOST(111), 23, Buffer.from([255, 251, 1, 255, 251, 3]), "edge-gw login: ");
  await web(HOST(111), 80, { "content-type": "text/html", server: "lighttpd" }, "<html><head><title>Router Login</title></head></html>");
  await greeting(HOST(112), 21, "220 (vsFTPd 3.0.5)\r\n");
  await mute(HOST(113), 445);
  await mute(HOST(113), 139);
  await web(HOST(114), 5000, { "content-type": "text/xml", server: "Linux/5.10 UPnP/1.0 miniupnpd/2.3.4" }, UPNP_DESCRIPTION);
  await web(HOST(115), 80, { "content-type": "text/html" }, "<html><head><title>NETSurveillance WEB</title></head></html>");
  await greeting(HOST(116), 22, "SSH-2.0-OpenSSH_9.6\r\n");
  snmpd = await startSnmpd({ address: HOST(117), port: 161, community: "public", lines: ["sysDescr Lab switch 24 ports"] });
  // The webhook receiver of the notification route.
  const hook = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(body) });
      res.end("ok");
    });
  });
  hookUrl = `http://${HOST(119)}:${await listen(hook, HOST(119), 0)}/hook`;

  const hw = await a.req("POST", "hardware", a.admin, { name: "edge-gw", role: "router", ip_address: HOST(111) });
  expect(hw.status, await hw.clone().text()).toBe(201);
  gateway = (await hw.json()).id;
  // The database stamped the node with its own clock; the driven clock (snapshots) catches up with it.
  a.clock.at = new Date(Date.now() + 1000);
  const sink = await a.req("POST", "notifications/sinks", a.admin, {
    name: "privacy-hook",
    provider_type: "webhook",
    provider_config: { url: hookUrl },
  });
  expect(sink.status, await sink.clone().text()).toBe(201);
  const route = await a.req("POST", "notifications/routes", a.admin, {
    sink_id: (await sink.json()).id,
    alert_severity: "warning",
    event_kinds: ["privacy.*"],
  });
  expect(route.status, await route.clone().text()).toBe(201);

  scanner = discoveryWorker(a.t.runtime, {
    owner: "privacy-test",
    pollMs: 200,
    progressMs: 100,
    logsMs: 100,
    findingsMs: 50,
    readinessMs: 3_600_000,
    recoverMs: 3_600_000,
    hostTimeoutMs: 8_000,
  });
  notifier = notificationsWorker(a.t.runtime, {
    groupingDelayMs: 0,
    maxAttempts: 3,
    timeoutMs: 2_000,
    backoff: { baseMs: 20, capMs: 100 },
    tickMs: 50,
    concurrency: 4,
    leaseMs: 10_000,
  });
  await scanner.start();
  await notifier.start();
});

afterAll(async () => {
  await scanner?.stop();
  await notifier?.stop();
  snmpd?.stop();
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await a?.t.close();
});

const score = async () => (await a.get("network/privacy-score")).body;

describe("the privacy rules over a real discovery run of loopback hosts", () => {
  it("takes a snapshot when the run completes, scoring the node the inventory already had", async () => {
    const job = await a.scan(SCAN);
    jobId = job.id;
    await until("the scan to complete", async () => {
      const [row] = await a.t.sql<{ status: string }[]>`select status from scan_jobs where id = ${jobId}`;
      if (row!.status === "failed") throw new Error("scan failed");
      return row!.status === "completed";
    });
    await until(
      "the discovery snapshot",
      async () => (await a.t.sql`select 1 from privacy_snapshots where trigger = 'discovery' and scan_job_id = ${jobId}`).length > 0,
    );
    const body = await score();
    expect(body).toMatchObject({ trigger: "discovery", score: 70, grade: "C" });
    expect(body.deductions.map((d: any) => [d.rule_id, d.hardware_id, d.points, d.severity])).toEqual([
      ["telnet_open", gateway, 22.5, "critical"],
      ["gateway_admin_http", gateway, 7.5, "warning"],
    ]);
    expect(body.deductions[0].evidence).toBe(`Telnet reachable at 23/tcp on ${HOST(111)} ("edge-gw login:")`);
    expect(body.deductions[1].evidence).toContain('("HTTP/1.1 200 OK")');
  });

  it("scores every risky host once the results are merged into the inventory", async () => {
    const pending = await (await a.req("GET", `discovery/results?job_id=${jobId}&limit=100`, a.admin)).json();
    const merge = await a.req("POST", "discovery/results/bulk-merge", a.admin, {
      result_ids: pending.items.map((r: { id: number }) => r.id),
      action: "accept",
    });
    expect(merge.status, await merge.clone().text()).toBe(200);
    const out = await a.refresh();
    expect(out).toMatchObject({ enabled: true, score: 19, grade: "F", new_findings: 5 });
    const ids = new Map(
      (await a.t.sql<{ id: number; ip_address: string }[]>`select id, ip_address from hardware`).map((h) => [h.ip_address, h.id]),
    );
    const body = await score();
    expect(body.deductions.map((d: any) => [d.rule_id, d.hardware_id, d.points, d.severity])).toEqual([
      ["telnet_open", gateway, 22.5, "critical"],
      ["default_credentials", ids.get(HOST(115)), 15, "critical"],
      ["ftp_open", ids.get(HOST(112)), 8, "warning"],
      ["smb_open", ids.get(HOST(113)), 8, "warning"],
      ["upnp_exposed", ids.get(HOST(114)), 10, "warning"],
      ["gateway_admin_http", gateway, 7.5, "warning"],
      ["snmp_public_community", ids.get(HOST(117)), 10, "warning"],
    ]);
    const by = (rule: string) => body.deductions.find((d: any) => d.rule_id === rule);
    expect(by("ftp_open").evidence).toBe(`FTP reachable at 21/tcp on ${HOST(112)} ("220 (vsFTPd 3.0.5)")`);
    expect(by("smb_open").ports).toEqual([139, 445]);
    expect(by("upnp_exposed").evidence).toBe(`UPnP reachable at 5000/tcp on ${HOST(114)} ("HTTP/1.1 200 OK")`);
    expect(by("default_credentials").evidence).toBe(
      `XMeye/NETSurveillance DVR (ships with admin and an empty password): "http | HTTP/1.1 200 OK | NETSurveillance WEB" at 80/tcp on ${HOST(115)}`,
    );
    expect(by("snmp_public_community").evidence).toBe(
      `SNMP on ${HOST(117)} answered the community "public" (sysDescr "Lab switch 24 ports")`,
    );
    expect(body.checks.find((c: any) => c.check_id === "snmp_coverage")).toMatchObject({
      status: "info",
      evidence: "8 device(s) asked with the default community, 1 answered.",
    });
    // The SSH host and the address with nothing open cost nothing.
    expect(body.deductions.some((d: any) => [HOST(116), HOST(118)].map((ip) => ids.get(ip)).includes(d.hardware_id))).toBe(false);
  });

  it("answers the alerts, the attack surface and a device's threat profile", async () => {
    const alerts = (await a.get("network/threat-alerts")).body;
    expect(alerts.status).toBe("critical");
    expect(alerts.alerts).toHaveLength(7);
    // Listed by hardware id; the merge made the new nodes in its own order, so compare by address.
    const surface = (await a.get("network/attack-surface")).body.attack_surface.sort((x: any, y: any) =>
      x.ip_address.localeCompare(y.ip_address),
    );
    expect(surface.map((s: any) => [s.ip_address, s.ports.map((p: any) => p.port)])).toEqual([
      [HOST(111), [23, 80]],
      [HOST(112), [21]],
      [HOST(113), [139, 445]],
      [HOST(114), [5000]],
      [HOST(115), [80]],
      [HOST(116), [22]],
    ]);
    expect(surface[3].ports[0]).toMatchObject({ service: "http", server: "Linux/5.10 UPnP/1.0 miniupnpd/2.3.4" });
    expect((await a.get(`devices/${gateway}/threat-profile`)).body).toMatchObject({ hardware_id: gateway, score: 70, grade: "C" });
  });

  it("delivers each new finding once through the notification route", async () => {
    const deliveries = await until("seven deliveries", async () => (received.length >= 7 ? received : false));
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toHaveLength(7);
    // The SNMP host is named after its sysName (this machine's hostname, as snmpd reports it).
    const [snmpHost] = await a.t.sql<{ name: string }[]>`select name from hardware where ip_address = ${HOST(117)}`;
    const titles = deliveries.map((d) => d.body.data.title).sort();
    expect(titles).toEqual(
      [
        "Device known for default credentials on host-127-0-0-115",
        "FTP is open on host-127-0-0-112",
        "Gateway admin page over plain HTTP on edge-gw",
        "SMB / NetBIOS file sharing is open on host-127-0-0-113",
        "Telnet is open on edge-gw",
        `SNMP answers the default community "public" on ${snmpHost!.name}`,
        "UPnP is exposed on host-127-0-0-114",
      ].sort(),
    );
    expect(deliveries.every((d) => d.body.type === "privacy.finding" && typeof d.headers["webhook-signature"] === "string")).toBe(true);
    // A second run that finds the same things says nothing new.
    const again = await a.scan(SCAN);
    await until(
      "the second discovery snapshot",
      async () => (await a.t.sql`select 1 from privacy_snapshots where scan_job_id = ${again.id}`).length > 0,
    );
    expect((await score()).score).toBe(19);
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toHaveLength(7);
  });
});
