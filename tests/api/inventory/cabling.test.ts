// Ports and cables (issue 33 item 2, docs/ports-and-cables.md): interfaces with LAGs and VLANs, patch
// panels, one cable per endpoint (409 naming the cable), incompatible ends (422), the trace through two
// patch panels, and the hardware connections kept with the cables (ADR 0493). Each refusal changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrapeText } from "../../../shared/metrics/scrape.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const body = async (res: Response) => res.json();
async function post(path: string, fields: Record<string, unknown>) {
  const res = await a.req("POST", path, a.editor, fields);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return body(res);
}
const node = (name: string) => post("hardware", { name });
const count = async (table: string) => Number((await a.t.sql`select count(*)::int as n from ${a.t.sql(table)}`)[0]!.n);

/** A patch panel: n rear ports of one position, each with its front port. */
async function panel(name: string, n: number) {
  const hw = await node(name);
  const fronts: number[] = [];
  const rears: number[] = [];
  for (let i = 1; i <= n; i++) {
    const rear = await post("rear-ports", { hardware_id: hw.id, name: `R${i}` });
    const front = await post("front-ports", { hardware_id: hw.id, name: `F${i}`, rear_port_id: rear.id });
    rears.push(rear.id);
    fronts.push(front.id);
  }
  return { hw, fronts, rears };
}

describe("interfaces", () => {
  it("creates with an ETag, names unique per node, lists by node, patches with If-Match", async () => {
    const sw = await node("sw-if");
    const res = await a.req("POST", "interfaces", a.editor, {
      hardware_id: sw.id,
      name: "eth0",
      speed_mbps: 1000,
      mac_address: "AA:BB:CC:00:11:22",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBe('W/"1"');
    const eth0 = await body(res);
    expect(eth0).toMatchObject({
      hardware_name: "sw-if",
      type: "copper",
      enabled: true,
      mac_address: "aa:bb:cc:00:11:22",
      cable_id: null,
      connected_to: null,
    });

    const dup = await a.req("POST", "interfaces", a.editor, { hardware_id: sw.id, name: "eth0" });
    expect(dup.status).toBe(409);
    expect((await body(dup)).detail).toContain(`Interface ${eth0.id}`);
    const other = await node("sw-if-2");
    await post("interfaces", { hardware_id: other.id, name: "eth0" });

    const list = await body(await a.req("GET", `interfaces?hardware_id=${sw.id}`, a.viewer));
    expect(list.items.map((i: { name: string }) => i.name)).toEqual(["eth0"]);

    const stale = await a.req("PATCH", `interfaces/${eth0.id}`, a.editor, { enabled: false }, { "if-match": 'W/"9"' });
    expect(stale.status).toBe(412);
    const ok = await a.req("PATCH", `interfaces/${eth0.id}`, a.editor, { enabled: false, hardware_id: other.id }, { "if-match": 'W/"1"' });
    expect(ok.status).toBe(200);
    expect(await body(ok)).toMatchObject({ enabled: false, hardware_id: sw.id, version: 2 });
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'interface' and entity_id = ${String(eth0.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["interface.create", "interface.update"]);
  });

  it("LAG members are interfaces of the same node under a lag-type interface", async () => {
    const sw = await node("sw-lag");
    const far = await node("sw-lag-far");
    const lag = await post("interfaces", { hardware_id: sw.id, name: "bond0", type: "lag" });
    const farLag = await post("interfaces", { hardware_id: far.id, name: "bond0", type: "lag" });
    const plain = await post("interfaces", { hardware_id: sw.id, name: "eth1" });
    const member = await post("interfaces", { hardware_id: sw.id, name: "eth2", lag_id: lag.id });
    expect(member).toMatchObject({ lag_id: lag.id, lag_name: "bond0" });

    const before = await count("interfaces");
    for (const [lag_id, msg] of [
      [farLag.id, "not on this interface's node"],
      [plain.id, "not a lag"],
      [999999, "was not found"],
    ] as const) {
      const res = await a.req("POST", "interfaces", a.editor, { hardware_id: sw.id, name: `x${lag_id}`, lag_id });
      expect(res.status).toBe(422);
      expect((await body(res)).fields.lag_id).toContain(msg);
    }
    expect(await count("interfaces")).toBe(before);
    const unlag = await a.req("PATCH", `interfaces/${lag.id}`, a.editor, { type: "copper" });
    expect(unlag.status).toBe(422);
    expect((await body(unlag)).fields.type).toContain(`Interface ${member.id}`);
    const members = await body(await a.req("GET", `interfaces?lag_id=${lag.id}`, a.viewer));
    expect(members.items.map((i: { id: number }) => i.id)).toEqual([member.id]);
  });

  it("VLAN modes: access takes the untagged VLAN, tagged takes a list of VLAN records, tagged-all none", async () => {
    const sw = await node("sw-vlan");
    const v10 = (await a.t.sql`insert into vlans (vlan_id, name) values (10, 'users') returning id`)[0]!.id as number;
    const v20 = (await a.t.sql`insert into vlans (vlan_id, name) values (20, 'voice') returning id`)[0]!.id as number;
    expect(await post("interfaces", { hardware_id: sw.id, name: "ge1", vlan_mode: "access", untagged_vlan_id: v10 })).toMatchObject({
      vlan_mode: "access",
      untagged_vlan_id: v10,
      tagged_vlan_ids: [],
    });
    expect(
      await post("interfaces", {
        hardware_id: sw.id,
        name: "ge2",
        vlan_mode: "tagged",
        untagged_vlan_id: v10,
        tagged_vlan_ids: [v20, v20],
      }),
    ).toMatchObject({
      tagged_vlan_ids: [v20],
    });
    for (const [fields, field] of [
      [{ vlan_mode: "access", tagged_vlan_ids: [v20] }, "tagged_vlan_ids"],
      [{ vlan_mode: "tagged-all", tagged_vlan_ids: [v20] }, "tagged_vlan_ids"],
      [{ untagged_vlan_id: v10 }, "vlan_mode"],
      [{ vlan_mode: "tagged", tagged_vlan_ids: [v20, 424242] }, "tagged_vlan_ids"],
      [{ vlan_mode: "trunk" }, "vlan_mode"],
    ] as const) {
      const res = await a.req("POST", "interfaces", a.editor, { hardware_id: sw.id, name: "bad", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(Object.keys((await body(res)).fields)).toContain(field);
    }
  });
});

describe("cables", () => {
  it("one cable per endpoint: 409 naming the cable that holds it, on either side; nothing written", async () => {
    const s1 = await node("cab-a");
    const s2 = await node("cab-b");
    const i1 = await post("interfaces", { hardware_id: s1.id, name: "eth0" });
    const i2 = await post("interfaces", { hardware_id: s2.id, name: "eth0" });
    const i3 = await post("interfaces", { hardware_id: s2.id, name: "eth1" });
    const res = await a.req("POST", "cables", a.editor, {
      a_kind: "interface",
      a_id: i1.id,
      b_kind: "interface",
      b_id: i2.id,
      type: "cat6",
      colour: "blue",
      length: 2.5,
      length_unit: "m",
      label: "C-001",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBe('W/"1"');
    const cable = await body(res);
    expect(cable).toMatchObject({
      a: { kind: "interface", id: i1.id, name: "eth0", hardware_name: "cab-a" },
      b: { kind: "interface", id: i2.id, hardware_name: "cab-b" },
      status: "connected",
      label: "C-001",
    });
    const before = await count("cables");
    for (const ends of [
      { a_kind: "interface", a_id: i1.id, b_kind: "interface", b_id: i3.id },
      { a_kind: "interface", a_id: i3.id, b_kind: "interface", b_id: i1.id },
      { a_kind: "interface", a_id: i3.id, b_kind: "interface", b_id: i2.id },
    ]) {
      const dup = await a.req("POST", "cables", a.editor, ends);
      expect(dup.status).toBe(409);
      const err = await body(dup);
      expect(err.detail).toContain(`Cable ${cable.id} (C-001) already holds interface`);
    }
    expect(await count("cables")).toBe(before);
    const port = await body(await a.req("GET", `interfaces/${i1.id}`, a.viewer));
    expect(port).toMatchObject({ cable_id: cable.id, connected_to: { kind: "interface", id: i2.id, hardware_name: "cab-b" } });

    // Moving an end onto a free port is allowed; the cable keeps its other end.
    const moved = await a.req("PATCH", `cables/${cable.id}`, a.editor, { b_id: i3.id }, { "if-match": 'W/"1"' });
    expect(moved.status).toBe(200);
    expect(await body(moved)).toMatchObject({ b: { id: i3.id, name: "eth1" }, version: 2 });
    const listed = await body(await a.req("GET", `cables?hardware_id=${s2.id}`, a.viewer));
    expect(listed.items.map((c: { id: number }) => c.id)).toEqual([cable.id]);
  });

  it("incompatible ends are a 422: a power port to an interface, two outlets, a wireless interface, an end that does not exist", async () => {
    const dev = await node("cab-power");
    const pdu = await node("cab-pdu");
    const eth = await post("interfaces", { hardware_id: dev.id, name: "eth0" });
    const wifi = await post("interfaces", { hardware_id: dev.id, name: "wlan0", type: "wireless" });
    const psu = await post("power-ports", { hardware_id: dev.id, name: "PSU1", allocated_w: 200, maximum_w: 350 });
    const o1 = await post("power-outlets", { hardware_id: pdu.id, name: "1" });
    const o2 = await post("power-outlets", { hardware_id: pdu.id, name: "2" });
    const other = await post("interfaces", { hardware_id: pdu.id, name: "mgmt" });
    const before = await count("cables");
    for (const [ends, msg] of [
      [{ a_kind: "power_port", a_id: psu.id, b_kind: "interface", b_id: eth.id }, "cannot join a power port to a interface"],
      [{ a_kind: "power_outlet", a_id: o1.id, b_kind: "power_outlet", b_id: o2.id }, "not two power outlets"],
      [{ a_kind: "interface", a_id: wifi.id, b_kind: "interface", b_id: other.id }, "wireless interface takes no cable"],
    ] as const) {
      const res = await a.req("POST", "cables", a.editor, ends);
      expect(res.status).toBe(422);
      expect((await body(res)).fields.b_kind).toContain(msg);
    }
    const missing = await a.req("POST", "cables", a.editor, { a_kind: "interface", a_id: eth.id, b_kind: "front_port", b_id: 987654 });
    expect(missing.status).toBe(422);
    expect((await body(missing)).fields.b_id).toContain("front port 987654 was not found");
    expect(await count("cables")).toBe(before);

    // The right pair: an outlet feeds the power port; the PDU's node is the connection's source.
    const feed = await post("cables", { a_kind: "power_port", a_id: psu.id, b_kind: "power_outlet", b_id: o1.id, type: "power" });
    const [conn] = await a.t
      .sql`select source_hardware_id, target_hardware_id, connection_type from hardware_connections where id = ${feed.connection_id}`;
    expect(conn).toMatchObject({ source_hardware_id: pdu.id, target_hardware_id: dev.id, connection_type: "power" });
    expect(await body(await a.req("GET", `power-outlets/${o1.id}`, a.viewer))).toMatchObject({
      connected_to: { kind: "power_port", id: psu.id, name: "PSU1", hardware_name: "cab-power" },
    });
  });

  it("a cable between two nodes is their hardware connection; deleting a port takes its cable and the connection", async () => {
    const n1 = await node("conn-1");
    const n2 = await node("conn-2");
    const e1 = await post("interfaces", { hardware_id: n1.id, name: "eth0" });
    const e2 = await post("interfaces", { hardware_id: n2.id, name: "eth0" });
    const e3 = await post("interfaces", { hardware_id: n1.id, name: "eth1" });
    const e4 = await post("interfaces", { hardware_id: n2.id, name: "eth1" });
    const c1 = await post("cables", { a_kind: "interface", a_id: e1.id, b_kind: "interface", b_id: e2.id });
    const c2 = await post("cables", { a_kind: "interface", a_id: e4.id, b_kind: "interface", b_id: e3.id });
    expect(c1.connection_id).not.toBeNull();
    expect(c2.connection_id).toBe(c1.connection_id);
    const conns = await body(await a.req("GET", `hardware/${n1.id}/connections`, a.viewer));
    expect(conns).toMatchObject([
      { id: c1.connection_id, source_hardware_id: n1.id, target_hardware_id: n2.id, connection_type: "ethernet" },
    ]);

    expect((await a.req("DELETE", `interfaces/${e1.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select id from cables where id = ${c1.id}`).length).toBe(0);
    expect(await body(await a.req("GET", `hardware/${n1.id}/connections`, a.viewer))).toHaveLength(1);
    expect((await a.req("DELETE", `cables/${c2.id}`, a.admin)).status).toBe(204);
    expect(await body(await a.req("GET", `hardware/${n1.id}/connections`, a.viewer))).toEqual([]);
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'cable' and entity_id in (${String(c1.id)}, ${String(c2.id)}) order by id`;
    expect(audit.map((r) => r.action)).toEqual(["cable.create", "cable.create", "cable.delete", "cable.delete"]);
  });

  it("the connections API keeps answering: a new connection gets two link interfaces and a cable; deleting it takes the cable", async () => {
    const n1 = await node("api-conn-1");
    const n2 = await node("api-conn-2");
    const conn = await post(`hardware/${n1.id}/connections`, {
      target_hardware_id: n2.id,
      connection_type: "fiber",
      bandwidth_mbps: 10000,
      notes: "uplink",
    });
    const cables = await body(await a.req("GET", `cables?connection_id=${conn.id}`, a.viewer));
    expect(cables.items).toMatchObject([
      {
        a: { hardware_id: n1.id, name: `link-${conn.id}` },
        b: { hardware_id: n2.id, name: `link-${conn.id}` },
        type: "fiber",
        description: "uplink",
      },
    ]);
    expect((await a.req("DELETE", `hardware-connections/${conn.id}`, a.editor)).status).toBe(204);
    expect((await body(await a.req("GET", `cables?connection_id=${conn.id}`, a.viewer))).total).toBe(0);
  });
});

describe("trace", () => {
  it("follows server -> panel A front/rear -> trunk -> panel B rear/front -> switch, from either end", async () => {
    const server = await node("trace-server");
    const sw = await node("trace-switch");
    const pa = await panel("panel-a", 2);
    const pb = await panel("panel-b", 2);
    const nic = await post("interfaces", { hardware_id: server.id, name: "eth0" });
    const port = await post("interfaces", { hardware_id: sw.id, name: "ge-0/0/1" });
    const c1 = await post("cables", { a_kind: "interface", a_id: nic.id, b_kind: "front_port", b_id: pa.fronts[1], label: "patch-1" });
    const trunk = await post("cables", { a_kind: "rear_port", a_id: pa.rears[1], b_kind: "rear_port", b_id: pb.rears[1], label: "trunk" });
    const c3 = await post("cables", { a_kind: "front_port", a_id: pb.fronts[1], b_kind: "interface", b_id: port.id, label: "patch-2" });

    const res = await a.req("GET", `interfaces/${nic.id}/trace`, a.viewer);
    expect(res.status).toBe(200);
    const trace = await body(res);
    const hop = (s: { hardware_name: string; name: string }) => `${s.hardware_name}:${s.name}`;
    expect(trace.ended).toBe("endpoint");
    expect(
      trace.segments.map((s: { near: never; cable: { label: string }; far: never }) => [hop(s.near), s.cable.label, hop(s.far)]),
    ).toEqual([
      ["trace-server:eth0", "patch-1", "panel-a:F2"],
      ["panel-a:R2", "trunk", "panel-b:R2"],
      ["panel-b:F2", "patch-2", "trace-switch:ge-0/0/1"],
    ]);
    expect(trace.segments.map((s: { cable: { id: number } }) => s.cable.id)).toEqual([c1.id, trunk.id, c3.id]);

    const back = await body(await a.req("GET", `interfaces/${port.id}/trace`, a.viewer));
    expect(back.segments.map((s: { far: never }) => hop(s.far))).toEqual(["panel-b:F2", "panel-a:R2", "trace-server:eth0"]);
    const mid = await body(await a.req("GET", `rear-ports/${pa.rears[1]}/trace`, a.viewer));
    expect(mid.segments.map((s: { far: never }) => hop(s.far))).toEqual(["panel-b:R2", "trace-switch:ge-0/0/1"]);
    const open = await body(await a.req("GET", `front-ports/${pa.fronts[0]}/trace`, a.viewer));
    expect(open).toMatchObject({ ended: "no_cable", segments: [] });
    expect((await a.req("GET", "interfaces/987654/trace", a.viewer)).status).toBe(404);
  });

  it("stops on a loop in bad data instead of running forever", async () => {
    const p = await panel("loop-panel", 1);
    const q = await panel("loop-panel-2", 1);
    // Front to front and rear to rear between the same two panels: the path comes back to where it began.
    await post("cables", { a_kind: "front_port", a_id: p.fronts[0], b_kind: "front_port", b_id: q.fronts[0] });
    await post("cables", { a_kind: "rear_port", a_id: q.rears[0], b_kind: "rear_port", b_id: p.rears[0] });
    const trace = await body(await a.req("GET", `front-ports/${p.fronts[0]}/trace`, a.viewer));
    expect(trace.ended).toBe("loop");
    expect(trace.segments).toHaveLength(2);
  });
});

describe("ports", () => {
  it("front ports map to a rear port of the same node at a free position within its positions", async () => {
    const pp = await node("pp-map");
    const otherNode = await node("pp-other");
    const rear = await post("rear-ports", { hardware_id: pp.id, name: "MPO1", type: "mpo", positions: 2 });
    const foreign = await post("rear-ports", { hardware_id: otherNode.id, name: "R1" });
    const f1 = await post("front-ports", { hardware_id: pp.id, name: "F1", rear_port_id: rear.id, rear_position: 1 });
    expect(f1).toMatchObject({ rear_port_name: "MPO1", rear_position: 1 });
    const taken = await a.req("POST", "front-ports", a.editor, {
      hardware_id: pp.id,
      name: "F1b",
      rear_port_id: rear.id,
      rear_position: 1,
    });
    expect(taken.status).toBe(409);
    expect((await body(taken)).detail).toContain(`Front port ${f1.id}`);
    const past = await a.req("POST", "front-ports", a.editor, { hardware_id: pp.id, name: "F3", rear_port_id: rear.id, rear_position: 3 });
    expect(past.status).toBe(422);
    const wrong = await a.req("POST", "front-ports", a.editor, { hardware_id: pp.id, name: "F4", rear_port_id: foreign.id });
    expect(wrong.status).toBe(422);
    const rearDelete = await a.req("DELETE", `rear-ports/${rear.id}`, a.admin);
    expect(rearDelete.status).toBe(409);
    expect((await a.req("DELETE", `rear-ports/${rear.id}`, a.editor)).status).toBe(403);
  });

  it("deleting a node takes its ports and the cables on them", async () => {
    const n1 = await node("gone-1");
    const n2 = await node("gone-2");
    const e1 = await post("interfaces", { hardware_id: n1.id, name: "eth0" });
    const e2 = await post("interfaces", { hardware_id: n2.id, name: "eth0" });
    const c = await post("cables", { a_kind: "interface", a_id: e1.id, b_kind: "interface", b_id: e2.id });
    expect((await a.req("DELETE", `hardware/${n1.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select id from cables where id = ${c.id}`).length).toBe(0);
    expect(await body(await a.req("GET", `interfaces/${e2.id}`, a.viewer))).toMatchObject({ cable_id: null, connected_to: null });
  });
});

describe("power", () => {
  it("a PDU's outlets, what they feed and the load; a device's draw; a rack's load; and the same in the metrics", async () => {
    const site = (await a.t.sql`insert into sites (name) values ('power-site') returning id`)[0]!.id as number;
    const rack = await body(await a.req("POST", "racks", a.admin, { site_id: site, name: "power-rack" }));
    const pdu = await post("hardware", { name: "pdu-1", site_id: site, rack_id: rack.id, rack_unit: 1 });
    const srv = await post("hardware", { name: "srv-1", site_id: site, rack_id: rack.id, rack_unit: 2 });
    const other = await node("srv-elsewhere");
    const p1 = await post("power-ports", { hardware_id: srv.id, name: "PSU1", allocated_w: 150, maximum_w: 300 });
    const p2 = await post("power-ports", { hardware_id: srv.id, name: "PSU2", allocated_w: 150, maximum_w: 300 });
    const p3 = await post("power-ports", { hardware_id: other.id, name: "PSU1", allocated_w: 90, maximum_w: 120 });
    const outlets = [];
    for (const n of ["1", "2", "3", "4"]) outlets.push(await post("power-outlets", { hardware_id: pdu.id, name: n }));
    await post("cables", { a_kind: "power_outlet", a_id: outlets[0].id, b_kind: "power_port", b_id: p1.id });
    await post("cables", { a_kind: "power_port", a_id: p2.id, b_kind: "power_outlet", b_id: outlets[1].id });
    await post("cables", { a_kind: "power_outlet", a_id: outlets[2].id, b_kind: "power_port", b_id: p3.id });
    expect((await a.req("PATCH", `power-ports/${p3.id}`, a.editor, { allocated_w: 500 })).status).toBe(422);

    const power = await body(await a.req("GET", `hardware/${pdu.id}/power`, a.viewer));
    expect(power.load).toEqual({ allocated_w: 390, maximum_w: 720, outlets_used: 3, outlets_total: 4 });
    expect(
      power.outlets.map((o: { name: string; feeds: { hardware_name: string; name: string } | null }) => [
        o.name,
        o.feeds && `${o.feeds.hardware_name}:${o.feeds.name}`,
      ]),
    ).toEqual([
      ["1", "srv-1:PSU1"],
      ["2", "srv-1:PSU2"],
      ["3", "srv-elsewhere:PSU1"],
      ["4", null],
    ]);
    expect((await body(await a.req("GET", `hardware/${srv.id}/power`, a.viewer))).draw).toEqual({ allocated_w: 300, maximum_w: 600 });
    const rackPower = await body(await a.req("GET", `racks/${rack.id}/power`, a.viewer));
    expect(rackPower).toMatchObject({
      allocated_w: 300,
      maximum_w: 600,
      nodes: [
        { name: "pdu-1", allocated_w: 0 },
        { name: "srv-1", allocated_w: 300 },
      ],
    });
    expect((await a.req("GET", "hardware/987654/power", a.viewer)).status).toBe(404);

    const lease = a.t.runtime.deps.database.lease();
    const text = await scrapeText(lease.db, "0.0.0-test");
    await lease.release();
    expect(text).toContain('svc_pdu_load_watts{pdu="pdu-1",state="allocated"} 390\n');
    expect(text).toContain('svc_pdu_load_watts{pdu="pdu-1",state="maximum"} 720\n');
    expect(text).toContain('svc_rack_power_watts{rack="power-rack",site="power-site",state="allocated"} 300\n');
  });
});

describe("LLDP neighbours proposed as cables", () => {
  it("matches local and remote ports to interfaces, lists the proposals with their state, accepts a ready one", async () => {
    const core = await node("lldp-core");
    const dist = await node("lldp-dist");
    const byMac = await node("lldp-by-mac");
    const c1 = await post("interfaces", { hardware_id: core.id, name: "Gi1/0/1" });
    const d1 = await post("interfaces", { hardware_id: dist.id, name: "Gi0/1" });
    await post("interfaces", { hardware_id: core.id, name: "Gi1/0/2" });
    await post("interfaces", { hardware_id: byMac.id, name: "eth0", mac_address: "00:11:22:33:44:55" });
    const job = (await a.t.sql`insert into scan_jobs (scan_types) values ('["lldp"]') returning id`)[0]!.id as number;
    const ins = (index: number, local: string, remote: number | null, port: string, chassis: string | null = null) =>
      a.t
        .sql`insert into lldp_neighbors (scan_job_id, source_hardware_id, neighbor_index, local_port_desc, remote_hardware_id, remote_port_desc, remote_chassis_id)
              values (${job}, ${core.id}, ${index}, ${local}, ${remote}, ${port}, ${chassis}) returning id`;
    const [n1] = await ins(1, "gi1/0/1", dist.id, "Gi0/1");
    const [n2] = await ins(2, "Gi1/0/2", null, "eth0", "00:11:22:33:44:55");
    const [n3] = await ins(3, "Gi1/0/9", dist.id, "Gi0/2");

    const res = await a.req("GET", `discovery/lldp-jobs/${job}/cable-proposals`, a.admin);
    expect(res.status).toBe(200);
    const { proposals } = await body(res);
    expect(proposals.map((p: { neighbor_id: number; state: string }) => [p.neighbor_id, p.state])).toEqual([
      [n1!.id, "ready"],
      [n2!.id, "ready"],
      [n3!.id, "unmatched"],
    ]);
    expect(proposals[0]).toMatchObject({ local: { id: c1.id }, remote: { id: d1.id, hardware_name: "lldp-dist" } });
    expect(proposals[1].remote).toMatchObject({ hardware_name: "lldp-by-mac", name: "eth0" });
    expect(proposals[2].reason).toContain('No interface named "Gi1/0/9"');

    const accepted = await a.req("POST", `discovery/lldp-jobs/${job}/cable-proposals/${n1!.id}/accept`, a.editor);
    expect(accepted.status).toBe(201);
    expect(await body(accepted)).toMatchObject({ a: { id: c1.id }, b: { id: d1.id } });
    const again = await a.req("POST", `discovery/lldp-jobs/${job}/cable-proposals/${n1!.id}/accept`, a.editor);
    expect(again.status).toBe(409);
    const unmatched = await a.req("POST", `discovery/lldp-jobs/${job}/cable-proposals/${n3!.id}/accept`, a.editor);
    expect(unmatched.status).toBe(409);
    const after = (await body(await a.req("GET", `discovery/lldp-jobs/${job}/cable-proposals`, a.admin))).proposals;
    expect(after[0]).toMatchObject({ state: "cabled" });
  });
});
