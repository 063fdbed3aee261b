// The listener worker end to end (issue 28, "Done when"): the settings turn it on for an interface; the
// listener runs in a network namespace of the test's own (a stand-in for the in-process listener that
// bridges to listener-child.ts there), a printer announces over mDNS and a router over SSDP from the other
// namespace, and both become discovery results (services, vendor, model, serial) of the day's listener job,
// with new-device alerts; GET /discovery/listener/status and /events report what was heard.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyListenerStatus, type ListenerObservation, type ListenerRuntimeStatus } from "../../../shared/domain/discovery/listener.ts";
import type { PassiveListener, PassiveListenerOptions } from "../../../net/listener/passive-listener.ts";
import { type ListenerWorker, listenerWorker } from "../../../sidecar/discovery/listener/listener-worker.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { type Child, createNetnsPair, type NetnsPair, netnsUnavailable, spawnInNetns } from "./netns.ts";

const why = netnsUnavailable();
if (why) console.warn(`listener-worker tests skipped: ${why}`);

/** A PassiveListener whose sockets live in namespace `ns`: listener-child.ts reports each observation and its status. */
function netnsListener(ns: string, children: Child[]) {
  return (opts: PassiveListenerOptions): PassiveListener => {
    let child: Child | undefined;
    let last: ListenerRuntimeStatus = emptyListenerStatus();
    return {
      async start() {
        child = spawnInNetns(ns, "listener-child.ts", opts.interfaces);
        children.push(child);
        child.proc.stdout.setEncoding("utf8");
        await child.waitFor((l) => l.type === "ready");
        const seen = new Set<Record<string, unknown>>();
        const pump = () => {
          for (const l of child!.lines) {
            if (seen.has(l)) continue;
            seen.add(l);
            if (l.type === "observation") opts.onObservation(l.observation as ListenerObservation);
            if (l.type === "status" || l.type === "ready") last = l.status as ListenerRuntimeStatus;
          }
        };
        pump();
        child.proc.stdout.on("data", () => setImmediate(pump));
      },
      async stop() {
        await child?.end();
        last = { ...last, running: false };
      },
      status: () => structuredClone(last),
    };
  };
}

/** Waits (at most 100 rounds of 50 ms) for `done`: a NOTIFY arrives after its transaction commits. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe.skipIf(why !== null)("listener worker: what is heard becomes discovery results", () => {
  let pair: NetnsPair;
  let actors: Actors;
  let worker: ListenerWorker;
  const children: Child[] = [];

  beforeAll(async () => {
    pair = createNetnsPair();
    actors = await createActors();
    worker = listenerWorker(actors.t.runtime, {
      owner: "test-sidecar",
      open: netnsListener(pair.listenerNs, children),
      pollMs: 3_600_000,
      flushMs: 3_600_000,
      heartbeatMs: 0,
    });
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    for (const c of children) await c.end();
    await actors?.t.close();
    pair?.remove();
  }, 60_000);

  it("is off by default, and refuses an interface name that is not one", async () => {
    const status = await (await actors.req("GET", "discovery/listener/status", actors.viewer)).json();
    expect(status).toMatchObject({ enabled: false, interfaces: [], listening: false, events_stored: 0 });
    const bad = await actors.req("PUT", "settings", actors.admin, { discovery_listener_interfaces: ["eth0; rm -rf /"] });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("interface name");
    expect((await actors.req("GET", "discovery/listener/status")).status).toBe(401);
  });

  it("listens on the interfaces of the setting once enabled", async () => {
    const put = await actors.req("PUT", "settings", actors.admin, {
      discovery_listener_enabled: true,
      discovery_listener_interfaces: [pair.listenerIf],
    });
    expect(put.status).toBe(200);
    await worker.start();
    await worker.flush();
    const status = await (await actors.req("GET", "discovery/listener/status", actors.viewer)).json();
    expect(status).toMatchObject({ enabled: true, interfaces: [pair.listenerIf], listening: true });
    expect(status.groups).toEqual(
      expect.arrayContaining([`224.0.0.251@${pair.listenerAddress}`, `239.255.255.250@${pair.listenerAddress}`]),
    );
    expect(status.sidecars).toHaveLength(1);
  }, 30_000);

  it("turns a printer's mDNS and a router's SSDP announcements into discovery results with services and vendor data", async () => {
    // What the /discovery/stream socket and the server-sent events forward: NOTIFY on the discovery channel.
    const notices: Record<string, unknown>[] = [];
    const listening = await actors.t.sql.listen("discovery", (payload) => notices.push(JSON.parse(payload)));
    const announcer = spawnInNetns(pair.announcerNs, "announcer-child.ts", [pair.announcerAddress, pair.routerAddress, "announce"]);
    children.push(announcer);
    type Row = {
      ip_address: string;
      hostname: string | null;
      vendor: string | null;
      model: string | null;
      serial_number: string | null;
      open_ports: { port: number; service: string; banner?: string }[];
      sources: string[];
      state: string;
      merge_status: string;
      scan_job_id: number;
    };
    let rows: Row[] = [];
    // Bounded: at most 100 rounds of flush-and-look (the announcer repeats every 200 ms).
    for (let i = 0; i < 100; i++) {
      await worker.flush();
      rows = await actors.t.sql<Row[]>`select * from scan_results order by ip_address`;
      const router = rows.find((r) => r.ip_address === pair.routerAddress);
      if (rows.some((r) => r.ip_address === pair.announcerAddress) && router?.serial_number) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await announcer.end();
    const printer = rows.find((r) => r.ip_address === pair.announcerAddress);
    const router = rows.find((r) => r.ip_address === pair.routerAddress);
    expect(printer).toMatchObject({
      hostname: "officeprinter.local",
      vendor: "Brother",
      model: "HL-L2350DW",
      sources: ["mdns"],
      state: "new",
      merge_status: "pending",
    });
    expect(printer!.open_ports).toEqual([
      expect.objectContaining({ port: 631, protocol: "tcp", service: "ipp", banner: "Office Printer" }),
    ]);
    expect(router).toMatchObject({
      hostname: "Test Router",
      vendor: "Netgearish",
      model: "RX-500 RX500v2",
      serial_number: "SN-ROUTER-0042",
      sources: ["ssdp"],
      state: "new",
    });
    expect(router!.open_ports).toEqual([expect.objectContaining({ port: 49152, service: "upnp:InternetGatewayDevice:1" })]);
    const [job] = await actors.t.sql<
      { source_type: string; status: string; hosts_found: number }[]
    >`select source_type, status, hosts_found from scan_jobs where id = ${printer!.scan_job_id}`;
    expect(job).toMatchObject({ source_type: "listener_triggered", status: "completed", hosts_found: 2 });
    // The review flow sees them like a scan's.
    const pending = await (await actors.req("GET", "discovery/results?status=pending", actors.admin)).json();
    expect(pending.items.map((r: { ip_address: string }) => r.ip_address)).toEqual(
      expect.arrayContaining([pair.announcerAddress, pair.routerAddress]),
    );
    expect(pending.items.find((r: { ip_address: string }) => r.ip_address === pair.routerAddress)).toMatchObject({
      model: "RX-500 RX500v2",
      serial_number: "SN-ROUTER-0042",
    });
    // A device never seen before raises one new-device alert each, however often it announces.
    const alerts = await actors.t.sql<
      { detail: { ip_address: string } }[]
    >`select detail from notification_alerts where kind = 'discovery.drift.new_device' order by id`;
    expect(alerts.map((a) => a.detail.ip_address).sort()).toEqual([pair.announcerAddress, pair.routerAddress].sort());
    await until(() => notices.some((n) => n.type === "results") && notices.some((n) => n.type === "listener_events"));
    expect(notices.find((n) => n.type === "listener_events")).toMatchObject({
      events: expect.arrayContaining([expect.objectContaining({ protocol: expect.stringMatching(/^(mdns|ssdp)$/) })]),
    });
    expect(notices.filter((n) => n.type === "results").flatMap((n) => n.addresses as string[])).toEqual(
      expect.arrayContaining([pair.announcerAddress, pair.routerAddress]),
    );
    await listening.unlisten();
  }, 60_000);

  it("reports the status and pages the events, filtered by protocol and address", async () => {
    await worker.flush();
    const status = await (await actors.req("GET", "discovery/listener/status", actors.viewer)).json();
    expect(status.counts.mdns.accepted).toBeGreaterThan(0);
    expect(status.counts.ssdp.accepted).toBeGreaterThan(0);
    expect(status.last_packet_at).toEqual(expect.any(String));
    expect(status.events_stored).toBeGreaterThan(1);
    const ssdp = await (await actors.req("GET", "discovery/listener/events?protocol=ssdp&limit=2", actors.viewer)).json();
    expect(ssdp).toMatchObject({ limit: 2, offset: 0, sort: "received_at", direction: "desc" });
    expect(ssdp.total).toBeGreaterThan(0);
    expect(ssdp.items.every((e: { protocol: string }) => e.protocol === "ssdp")).toBe(true);
    expect(ssdp.items[0]).toMatchObject({
      kind: "notify",
      source: pair.routerAddress,
      location: `http://${pair.routerAddress}:49152/rootDesc.xml`,
      heard_by: "test-sidecar",
    });
    const printer = await (await actors.req("GET", `discovery/listener/events?address=${pair.announcerAddress}`, actors.viewer)).json();
    expect(printer.total).toBeGreaterThan(0);
    expect(printer.items.every((e: { address: string }) => e.address === pair.announcerAddress)).toBe(true);
    expect(printer.items[0]).toMatchObject({ protocol: "mdns", hostname: "officeprinter.local", vendor: "Brother" });
    const bad = await actors.req("GET", "discovery/listener/events?protocol=smb&address=nope", actors.viewer);
    expect(bad.status).toBe(422);
    const body = await bad.json();
    expect(JSON.stringify(body)).toContain("Must be one of: mdns, ssdp");
    expect(JSON.stringify(body)).toContain("Must be an IP address");
  });

  it("closes the sockets when disabled", async () => {
    expect((await actors.req("PUT", "settings", actors.admin, { discovery_listener_enabled: false })).status).toBe(200);
    await worker.reconcile();
    await worker.stop();
    const status = await (await actors.req("GET", "discovery/listener/status", actors.viewer)).json();
    expect(status).toMatchObject({ enabled: false, listening: false });
  }, 30_000);
});
