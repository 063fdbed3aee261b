// Group monitors (issue 29 item 3, docs/adr/0440) against real PostgreSQL: a group's state follows its
// members' (all, any, at least N), recorded through the same path as a check's result (events naming the
// deciding members, alerts, samples); groups nest, refuse cycles (422 naming the cycle) and non-groups;
// pausing, deleting and moving a member re-evaluate its group. Members' states are driven by recording
// check results, as the runner does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { recordCheckResults } from "../../../shared/verbs/monitors/run/record-results.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

/** Records one check result per monitor, as the runner does, one second on. */
async function record(states: Record<number, boolean>): Promise<void> {
  a.clock.advance(1000);
  const results = Object.entries(states).map(([id, up]) => ({
    monitor_id: Number(id),
    checked_at: a.clock.now().toISOString(),
    up,
    latency_ms: up ? 3 : null,
    samples: [],
    msg: up ? "connected" : "connection refused",
    source: "server" as const,
  }));
  await recordCheckResults({
    ctx: systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: cryptoRandom }),
    input: { results },
  });
}

const group = (name: string, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  a.monitor({ name, check_type: "group", host: undefined, config, ...extra });
const read = async (id: number) => (await a.req("GET", `monitors/${id}`, a.viewer)).json();
const events = async (id: number) =>
  (await (await a.req("GET", `monitors/${id}/events`, a.viewer)).json()).items as {
    event_type: string;
    status_from: string;
    status_to: string;
    msg: string;
    detail: Record<string, any> | null;
  }[];
const alerts = (id: number) =>
  a.t.sql<{ kind: string; body: string }[]>`select kind, body from notification_alerts where monitor_id = ${id} order by id`;

describe("a group's state", () => {
  it("all: up when every member is up, down naming the down ones, up again with a recovery alert", async () => {
    const g = await group("web tier");
    expect(g).toMatchObject({ check_type: "group", host: "", status: "pending", group_id: null, members: { total: 0 } });
    const [web1, web2, db1] = [
      await a.monitor({ name: "web-1", group_id: g.id }),
      await a.monitor({ name: "web-2", group_id: g.id }),
      await a.monitor({ name: "db-1", group_id: g.id }),
    ];
    expect(web1.group_id).toBe(g.id);
    expect((await read(g.id)).members).toEqual({ total: 3, up: 0, down: 0, pending: 3, paused: 0, maintenance: 0 });

    await record({ [web1.id]: true, [web2.id]: true, [db1.id]: true });
    expect(await read(g.id)).toMatchObject({ status: "up", last_msg: "up: 3 of 3 up, need 3: db-1 up, web-1 up, web-2 up" });

    await record({ [web2.id]: false, [db1.id]: false });
    const down = await read(g.id);
    expect(down).toMatchObject({ status: "down", last_msg: "down: 1 of 3 up, need 3: db-1 down, web-2 down" });
    expect(down.members).toMatchObject({ total: 3, up: 1, down: 2 });
    const [latest] = await events(g.id);
    expect(latest).toMatchObject({ event_type: "down", status_from: "up", status_to: "down", msg: down.last_msg });
    expect(latest!.detail).toEqual({
      mode: "all",
      need: 3,
      counts: { up: 1, down: 2, pending: 0, paused: 0, maintenance: 0 },
      deciding: [
        { id: db1.id, name: "db-1", status: "down" },
        { id: web2.id, name: "web-2", status: "down" },
      ],
    });

    await record({ [web2.id]: true, [db1.id]: true });
    expect((await read(g.id)).status).toBe("up");
    expect((await alerts(g.id)).map((r) => r.kind)).toEqual(["monitor.down", "monitor.up"]);
    expect((await alerts(g.id))[0]!.body).toContain("db-1 down, web-2 down");
    expect((await events(g.id)).map((e) => e.event_type)).toEqual(["up", "down", "up"]);
  });

  it("any: up while one member is up, down only when none is", async () => {
    const g = await group("dns pair", { mode: "any" });
    const [ns1, ns2] = [await a.monitor({ name: "ns-1", group_id: g.id }), await a.monitor({ name: "ns-2", group_id: g.id })];
    await record({ [ns1.id]: false, [ns2.id]: true });
    expect(await read(g.id)).toMatchObject({ status: "up", last_msg: "up: 1 of 2 up, need 1: ns-2 up" });
    // A changed rule judges the group at once.
    const strict = await a.req("PATCH", `monitors/${g.id}`, a.admin, { config: { mode: "all" } });
    expect(await strict.json()).toMatchObject({ status: "down", last_msg: "down: 1 of 2 up, need 2: ns-1 down" });
    await a.req("PATCH", `monitors/${g.id}`, a.admin, { config: { mode: "any" } });
    expect((await read(g.id)).status).toBe("up");
    await record({ [ns2.id]: false });
    expect(await read(g.id)).toMatchObject({ status: "down", last_msg: "down: 0 of 2 up, need 1: ns-1 down, ns-2 down" });
  });

  it("at_least: up with min_up members up, down below it, and down when fewer members count than min_up", async () => {
    const g = await group("quorum", { mode: "at_least", min_up: 2 });
    const [n1, n2, n3] = [
      await a.monitor({ name: "node-1", group_id: g.id }),
      await a.monitor({ name: "node-2", group_id: g.id }),
      await a.monitor({ name: "node-3", group_id: g.id }),
    ];
    await record({ [n1.id]: true, [n2.id]: true, [n3.id]: false });
    expect(await read(g.id)).toMatchObject({ status: "up", last_msg: "up: 2 of 3 up, need 2: node-1 up, node-2 up" });
    await record({ [n2.id]: false });
    expect(await read(g.id)).toMatchObject({ status: "down", last_msg: "down: 1 of 3 up, need 2: node-2 down, node-3 down" });
    await record({ [n2.id]: true });
    expect((await read(g.id)).status).toBe("up");

    // Paused members do not count: two left out of three, one of them down, is below min_up.
    expect((await a.req("POST", `monitors/${n1.id}/pause`, a.admin)).status).toBe(200);
    expect(await read(g.id)).toMatchObject({
      status: "down",
      last_msg: "down: 1 of 2 up, need 2: node-3 down (not counted: 1 paused)",
    });
    expect((await a.req("DELETE", `monitors/${n3.id}`, a.admin)).status).toBe(204);
    expect(await read(g.id)).toMatchObject({
      status: "down",
      last_msg: "down: 1 of 1 up, need 2; only 1 member count (not counted: 1 paused)",
    });
  });

  it("pending: while members have no result, and an up group goes pending when a new member joins", async () => {
    const g = await group("new tier");
    const m1 = await a.monitor({ name: "app-1", group_id: g.id });
    expect(await read(g.id)).toMatchObject({ status: "pending", last_msg: "pending: 0 of 1 up, need 1: app-1 pending" });
    await record({ [m1.id]: true });
    expect((await read(g.id)).status).toBe("up");
    await a.monitor({ name: "app-2", group_id: g.id });
    expect((await read(g.id)).status).toBe("pending");
    expect((await events(g.id)).map((e) => `${e.status_from}>${e.status_to}`)).toEqual(["up>pending", "pending>up"]);
  });

  it("refuses a config that does not fit its mode", async () => {
    for (const config of [{ mode: "at_least" }, { mode: "all", min_up: 2 }, { mode: "most" }, { min_up: 0, mode: "at_least" }]) {
      const res = await a.req("POST", "monitors", a.admin, { name: "bad group", check_type: "group", config });
      expect(res.status, JSON.stringify(config)).toBe(422);
      expect((await res.json()).detail[0].loc.slice(0, 2)).toEqual(["body", "config"]);
    }
    const withHost = await a.req("POST", "monitors", a.admin, { name: "bad group", check_type: "group", host: "10.0.0.1" });
    expect(withHost.status).toBe(422);
  });
});

describe("membership", () => {
  it("nests groups: a member's change moves its group and the group above", async () => {
    const outer = await group("site", { mode: "all" });
    const inner = await group("rack", { mode: "any" }, { group_id: outer.id });
    const disk = await a.monitor({ name: "disk", group_id: inner.id });
    const other = await a.monitor({ name: "other", group_id: outer.id });
    await record({ [disk.id]: true, [other.id]: true });
    expect((await read(inner.id)).status).toBe("up");
    expect(await read(outer.id)).toMatchObject({ status: "up", last_msg: "up: 2 of 2 up, need 2: other up, rack up" });

    await record({ [disk.id]: false });
    expect((await read(inner.id)).status).toBe("down");
    expect(await read(outer.id)).toMatchObject({ status: "down", last_msg: "down: 1 of 2 up, need 2: rack down" });
    const [latest] = await events(outer.id);
    expect(latest!.detail!.deciding).toEqual([{ id: inner.id, name: "rack", status: "down" }]);
  });

  it("refuses a group that is not one, the monitor itself, and a cycle, naming it", async () => {
    const g5 = await group("g-a");
    const g9 = await group("g-b", {}, { group_id: g5.id });
    const g12 = await group("g-c", {}, { group_id: g9.id });
    const plain = await a.monitor({ name: "plain" });

    const cycle = await a.req("PATCH", `monitors/${g5.id}`, a.admin, { group_id: g12.id });
    expect(cycle.status).toBe(422);
    expect((await cycle.json()).detail).toEqual([
      { loc: ["body", "group_id"], msg: `Would make a cycle: group ${g5.id} -> ${g12.id} -> ${g9.id} -> ${g5.id}.`, type: "cycle" },
    ]);
    const self = await a.req("PATCH", `monitors/${g5.id}`, a.admin, { group_id: g5.id });
    expect(self.status).toBe(422);
    expect((await self.json()).detail[0].msg).toBe(`Monitor ${g5.id} cannot be its own group.`);
    const notGroup = await a.req("POST", "monitors", a.admin, { name: "x", check_type: "tcp", host: "127.0.0.1", group_id: plain.id });
    expect(notGroup.status).toBe(422);
    expect((await notGroup.json()).detail[0]).toMatchObject({
      loc: ["body", "group_id"],
      msg: `Monitor ${plain.id} (plain) is a tcp monitor, not a group.`,
    });
    const missing = await a.req("PATCH", `monitors/${plain.id}`, a.admin, { group_id: 999999 });
    expect(missing.status).toBe(422);
    expect((await read(g5.id)).group_id).toBeNull();
  });

  it("deleting, pausing and moving a member re-evaluate its groups; ?group_id= lists the members", async () => {
    const g = await group("cache tier");
    const h = await group("spare tier");
    const [c1, c2] = [await a.monitor({ name: "cache-1", group_id: g.id }), await a.monitor({ name: "cache-2", group_id: g.id })];
    await record({ [c1.id]: true, [c2.id]: false });
    expect((await read(g.id)).status).toBe("down");

    const members = await (await a.req("GET", `monitors?group_id=${g.id}`, a.viewer)).json();
    expect(members.items.map((m: { name: string }) => m.name)).toEqual(["cache-1", "cache-2"]);

    expect((await a.req("DELETE", `monitors/${c2.id}`, a.admin)).status).toBe(204);
    expect(await read(g.id)).toMatchObject({ status: "up", last_msg: "up: 1 of 1 up, need 1: cache-1 up" });
    expect((await alerts(g.id)).map((r) => r.kind)).toEqual(["monitor.down", "monitor.up"]);

    // Moved to another group: the old one has no member left (pending), the new one judges it.
    const moved = await a.req("PATCH", `monitors/${c1.id}`, a.admin, { group_id: h.id });
    expect(moved.status).toBe(200);
    expect(await read(g.id)).toMatchObject({ status: "pending", last_msg: "pending: no member counts", members: { total: 0 } });
    expect((await read(h.id)).status).toBe("up");

    // A paused group is not judged; resumed, it is at once.
    expect((await a.req("POST", `monitors/${h.id}/pause`, a.admin)).status).toBe(200);
    await record({ [c1.id]: false });
    expect((await read(h.id)).status).toBe("up");
    const resumed = await (await a.req("POST", `monitors/${h.id}/resume`, a.admin)).json();
    expect(resumed).toMatchObject({ status: "down", last_msg: "down: 0 of 1 up, need 1: cache-1 down" });
  });

  it("judges a group again after its interval even when no member changes status", async () => {
    const g = await group("steady", {}, { interval_secs: 60 });
    const m = await a.monitor({ name: "steady-1", group_id: g.id });
    await record({ [m.id]: true });
    const first = (await read(g.id)).last_polled_at;
    await record({ [m.id]: true });
    expect((await read(g.id)).last_polled_at).toBe(first);
    // "Check now" judges it at once (the runner never claims a group).
    a.clock.advance(1000);
    const checked = await (await a.req("POST", `monitors/${g.id}/check`, a.admin)).json();
    expect(Date.parse(checked.last_polled_at)).toBe(a.clock.now().getTime());
    a.clock.advance(60_000);
    await record({ [m.id]: true });
    expect(Date.parse((await read(g.id)).last_polled_at)).toBeGreaterThan(Date.parse(first));
    const [samples] = await a.t.sql<{ n: number }[]>`select count(*)::int as n from monitor_samples where monitor_id = ${g.id}`;
    // The member joining, its first result (a status change), "Check now" and the interval's: not the unchanged one.
    expect(samples!.n).toBe(4);
  });
});
