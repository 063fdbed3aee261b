// A hardware node's status follows the monitors watching it (docs/adr/0466): a node with an up monitor
// is up, not `unknown`; any monitor down makes it down; pending monitors say nothing; a paused or deleted
// monitor stops counting (a resumed one counts again). Each change is recorded in the node's status history like a reported one.
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

async function check(results: Record<number, boolean>): Promise<void> {
  a.clock.advance(1000);
  await recordCheckResults({
    ctx: systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: cryptoRandom }),
    input: {
      results: Object.entries(results).map(([id, up]) => ({
        monitor_id: Number(id),
        checked_at: a.clock.now().toISOString(),
        up,
        latency_ms: up ? 2 : null,
        samples: [],
        msg: up ? "connected" : "connection refused",
        source: "server" as const,
      })),
    },
  });
}
const node = async (id: number) =>
  (await (await a.req("GET", `hardware/${id}`, a.viewer)).json()) as { status: string; effective_status: string };
const history = (id: number) =>
  a.t.sql<{ status: string; previous_status: string; message: string }[]>`
    select status, previous_status, message from status_history where entity_type = 'hardware' and entity_id = ${id} order by id`;

describe("a hardware node's status from its monitors", () => {
  it("is up with an up monitor, down when any is down, and says so in its history", async () => {
    const id = await a.node("edge-sw");
    const ping = await a.monitor({ name: "edge-sw ping", target_type: "hardware", target_id: id, max_retries: 1 });
    const ssh = await a.monitor({ name: "edge-sw ssh", target_type: "hardware", target_id: id, max_retries: 0 });
    expect((await node(id)).status).toBe("unknown");

    // A first failure with a retry left is pending: it says nothing of the node.
    await check({ [ping.id]: false });
    expect((await node(id)).status).toBe("unknown");

    await check({ [ping.id]: true });
    expect(await node(id)).toMatchObject({ status: "up", effective_status: "up" });
    await check({ [ssh.id]: false });
    expect((await node(id)).status).toBe("down");
    // The other monitor up again does not hide the one still down.
    await check({ [ping.id]: true });
    expect((await node(id)).status).toBe("down");
    await check({ [ssh.id]: true });
    expect((await node(id)).status).toBe("up");

    expect(await history(id)).toEqual([
      { status: "up", previous_status: "unknown", message: "Hardware node edge-sw is UP (reported by its monitors)." },
      { status: "down", previous_status: "up", message: "Hardware node edge-sw is DOWN (reported by its monitors)." },
      { status: "up", previous_status: "down", message: "Hardware node edge-sw is UP (reported by its monitors)." },
    ]);
  });

  it("stops counting a paused or deleted monitor: the others decide", async () => {
    const id = await a.node("db-host");
    const up = await a.monitor({ name: "db-host ping", target_type: "hardware", target_id: id });
    const down = await a.monitor({ name: "db-host pg", target_type: "hardware", target_id: id, max_retries: 0 });
    await check({ [up.id]: true, [down.id]: false });
    expect((await node(id)).status).toBe("down");
    expect((await a.req("POST", `monitors/${down.id}/pause`, a.admin)).status).toBe(200);
    expect((await node(id)).status).toBe("up");

    // Resumed, it counts again with its last status until its next result.
    expect((await a.req("POST", `monitors/${down.id}/resume`, a.admin)).status).toBe(200);
    expect((await node(id)).status).toBe("down");
    expect((await a.req("DELETE", `monitors/${down.id}`, a.admin)).status).toBe(204);
    expect((await node(id)).status).toBe("up");
  });

  it("leaves nodes other monitors do not watch alone, and an operator's override still wins", async () => {
    const watched = await a.node("nas-1");
    const other = await a.node("nas-2");
    await a.t.sql`update hardware set status_override = 'maintenance' where id = ${watched}`;
    const m = await a.monitor({ name: "nas-1 ping", target_type: "hardware", target_id: watched });
    await check({ [m.id]: true });
    expect(await node(watched)).toMatchObject({ status: "up", effective_status: "maintenance" });
    expect((await node(other)).status).toBe("unknown");
  });
});
