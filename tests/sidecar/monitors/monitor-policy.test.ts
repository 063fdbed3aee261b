// The monitor policy at run time, through the runner against real loopback peers: loopback allowed by
// default (monitors probe local services), refused once monitor_policy says so (read each round, no
// restart), a name that resolves to a refused address refused by the lookup, and metadata in any
// notation or behind a redirect never reached.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeRuntime } from "../../../runtime/node-deps.ts";
import { monitorsWorker } from "../../../sidecar/monitors/monitors-worker.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { type HttpPeer, startHttpPeer } from "./peers.ts";
import { DrivenClock, insertMonitor, monitorRow, openTestRuntime } from "./support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
let peer: HttpPeer;
const clock = new DrivenClock();

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url, clock);
  peer = await startHttpPeer();
});
afterAll(async () => {
  await peer?.close();
  await runtime?.close();
  await db?.drop();
});

const setMonitorPolicy = (value: { allow_private: boolean; allow_loopback: boolean } | null) =>
  value === null
    ? runtime.database.db.execute(sql`delete from app_settings where key = 'monitor_policy'`)
    : runtime.database.db.execute(
        sql`insert into app_settings (key, value) values ('monitor_policy', ${JSON.stringify(value)}::jsonb) on conflict (key) do update set value = excluded.value`,
      );

describe("monitor policy in the runner", () => {
  it("reaches loopback by default and refuses it once monitor_policy says so, without connecting", async () => {
    peer.on("/up", { status: 200, body: "ok" });
    const id = await insertMonitor(runtime, {
      check_type: "http",
      host: "127.0.0.1",
      config: { url: `${peer.url}/up` },
      interval_secs: 60,
    });
    const worker = monitorsWorker(runtime, { owner: "policy-1" });
    await worker.tick();
    await worker.flush();
    expect((await monitorRow(runtime, id)).status).toBe("up");

    await setMonitorPolicy({ allow_private: true, allow_loopback: false });
    const seen = peer.seen.length;
    clock.advance(60_000);
    await worker.tick();
    await worker.flush();
    const row = await monitorRow(runtime, id);
    expect(row.status).toBe("down");
    expect(row.last_msg).toMatch(/refused by the monitor policy.*loopback/);
    expect(peer.seen.length).toBe(seen);
    await setMonitorPolicy(null);
  });

  it("refuses a tcp check to a name resolving to a refused address (the lookup hook)", async () => {
    await setMonitorPolicy({ allow_private: true, allow_loopback: false });
    const id = await insertMonitor(runtime, {
      check_type: "tcp",
      host: "rebind.example.test",
      config: { port: peer.port },
      interval_secs: 60,
    });
    const worker = monitorsWorker(runtime, { owner: "policy-2", resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
    const seen = peer.seen.length;
    await worker.tick();
    await worker.flush();
    const row = await monitorRow(runtime, id);
    expect(row.status).toBe("down");
    expect(row.last_msg).toMatch(/refused by the monitor policy: rebind\.example\.test resolves to a refused address/);
    expect(peer.seen.length).toBe(seen);
    await setMonitorPolicy(null);
  });

  it("never reaches metadata: a decimal host, or a redirect from an allowed target", async () => {
    peer.on("/hop", { status: 302, headers: { location: "http://0xa9fea9fe/latest/meta-data/iam/" } });
    const direct = await insertMonitor(runtime, { check_type: "tcp", host: "2852039166", config: { port: 80 }, interval_secs: 60 });
    const hop = await insertMonitor(runtime, {
      check_type: "http",
      host: "127.0.0.1",
      config: { url: `${peer.url}/hop` },
      interval_secs: 60,
    });
    const worker = monitorsWorker(runtime, { owner: "policy-3" });
    await worker.tick();
    await worker.flush();
    for (const id of [direct, hop]) {
      const row = await monitorRow(runtime, id);
      expect(row.status, String(id)).toBe("down");
      expect(row.last_msg, String(id)).toMatch(/refused by the monitor policy.*metadata/);
      expect(row.last_msg).not.toContain("meta-data");
    }
  });
});
