// The built-in (native) monitors (spec/catalogue.tsv, group integrations): the singleton "Built-in Monitors"
// integration created on first use, a native monitor made as one of OUR monitors with the reference's
// probe derivation and a mirror row, reads that take status and latency from the monitor itself, 409 /
// 422 / 404 paths, and DELETE removing both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MonitorActors, createMonitorActors } from "../monitors/support.ts";

let a: MonitorActors;

const post = (body: Record<string, unknown>, token = a.admin) => a.req("POST", "integrations/native/monitors", token, body);
const counts = async () =>
  (await a.t.sql`select (select count(*) from monitors)::int as monitors, (select count(*) from integration_monitors)::int as mirrors`)[0]!;

beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => {
  await a?.t.close();
});

describe("native monitors", () => {
  it("a viewer's GET lists nothing and writes nothing before the first native monitor", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await a.req("GET", "integrations/native/monitors", a.viewer);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    }
    expect(await a.t.sql`select id from integrations where type = 'native'`).toHaveLength(0);
  });

  it("derives the probe: service url → http, service ip → tcp on its first port, node → icmp on its address", async () => {
    const web = await a.service("native-web", { url: "https://wiki.lan/health", ip: "192.168.1.30", ports: [{ port: 443 }] });
    const db = await a.service("native-db", { ip: "192.168.1.31", ports: [{ port: 5432 }, { port: 5433 }] });
    const node = await a.node("native-node", { ip: "192.168.1.40" });

    const http = await post({ entity_type: "service", entity_id: web });
    expect(http.status, await http.clone().text()).toBe(201);
    const h = await http.json();
    expect(h).toMatchObject({
      external_id: `native-svc-${web}`,
      name: "native-web",
      probe_type: "http",
      probe_target: "https://wiki.lan/health",
      probe_port: null,
      is_native: true,
      status: "pending",
      linked_service_id: web,
      integration_name: "Built-in Monitors",
    });
    const [m] = await a.t
      .sql`select check_type, host, config, target_type, target_id, interval_secs from monitors where id = ${h.monitor_id}`;
    expect(m).toMatchObject({
      check_type: "http",
      host: "wiki.lan",
      config: { url: "https://wiki.lan/health" },
      target_type: "service",
      target_id: web,
      interval_secs: 60,
    });

    const tcp = await (await post({ entity_type: "service", entity_id: db, probe_interval_s: 30 })).json();
    expect(tcp).toMatchObject({
      external_id: `native-svc-${db}`,
      probe_type: "tcp",
      probe_target: "192.168.1.31",
      probe_port: 5432,
      probe_interval_s: 30,
    });
    const icmp = await (await post({ entity_type: "hardware", entity_id: node, name: "Node ping" })).json();
    expect(icmp).toMatchObject({
      external_id: `native-hw-${node}`,
      name: "Node ping",
      probe_type: "icmp",
      probe_target: "192.168.1.40",
      linked_hardware_id: node,
    });

    // The first native monitor made the singleton integration, once.
    const rows = await a.t.sql`select id, name, type, next_sync_at from integrations where type = 'native'`;
    expect(rows).toEqual([{ id: expect.any(Number), name: "Built-in Monitors", type: "native", next_sync_at: null }]);
    expect(await (await a.req("POST", `integrations/${rows[0]!.id}/test`, a.admin)).json()).toEqual({
      ok: true,
      message: "Native monitors are always available",
    });
    expect((await a.req("POST", "integrations", a.admin, { type: "native", name: "again" })).status).toBe(409);

    // Reads take status, last check and latency from our monitor.
    await a.t.sql`update monitors set status = 'up', last_latency_ms = 12.5, last_polled_at = now() where id = ${icmp.monitor_id}`;
    const list = await (await a.req("GET", "integrations/native/monitors", a.viewer)).json();
    expect(list.find((r: any) => r.id === icmp.id)).toMatchObject({ status: "up", avg_response_ms: 12.5 });
    expect(list.find((r: any) => r.id === icmp.id).last_checked_at).not.toBeNull();
    const all = await (await a.req("GET", "integrations/monitors", a.viewer)).json();
    expect(all.find((r: any) => r.id === icmp.id).status).toBe("up");

    // Delete removes our monitor and its mirror.
    expect((await a.req("DELETE", `integrations/native/monitors/${icmp.id}`, a.admin)).status).toBe(204);
    expect(await a.t.sql`select id from monitors where id = ${icmp.monitor_id}`).toHaveLength(0);
    expect(await a.t.sql`select id from integration_monitors where id = ${icmp.id}`).toHaveLength(0);
    expect((await a.req("DELETE", `integrations/native/monitors/${icmp.id}`, a.admin)).status).toBe(404);
  });

  it("refuses a duplicate (409), an entity without a target (422), a missing entity (404) and callers without the scopes, writing nothing", async () => {
    const svc = await a.service("native-dup", { url: "http://dup.lan/" });
    expect((await post({ entity_type: "service", entity_id: svc })).status).toBe(201);
    const before = await counts();
    const dup = await post({ entity_type: "service", entity_id: svc });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe("Monitor already exists for this entity");

    const bare = await a.node("native-bare");
    const none = await post({ entity_type: "hardware", entity_id: bare });
    expect(none.status).toBe(422);
    expect(JSON.stringify((await none.json()).detail)).toContain("Cannot derive probe target");
    const noPort = await post({ entity_type: "hardware", entity_id: bare, probe_type: "tcp", probe_target: "192.168.1.50" });
    expect(noPort.status).toBe(422);
    expect(JSON.stringify((await noPort.json()).detail)).toContain("probe_port");

    expect((await (await post({ entity_type: "hardware", entity_id: 999999 })).json()).detail).toBe("Hardware asset not found");
    expect((await post({ entity_type: "service", entity_id: 999999 })).status).toBe(404);
    expect((await post({ entity_type: "router", entity_id: svc })).status).toBe(422);
    expect((await post({ entity_type: "service", entity_id: svc, probe_interval_s: 5 })).status).toBe(422);
    expect((await post({ entity_type: "service", entity_id: bare }, a.viewer)).status).toBe(403);
    expect((await post({ entity_type: "service", entity_id: bare }, a.editor)).status).toBe(403);
    expect((await a.req("POST", "integrations/native/monitors", undefined, { entity_type: "service", entity_id: bare })).status).toBe(401);
    expect(await counts()).toEqual(before);
  });
});
