// The SNMP poller against a real snmpd from Debian on loopback (.ci/run installs the package; this test
// installs nothing and fails saying so when snmpd is missing). One poll through the poller's own code
// path stores a plausible "snmp" row; a NOTIFY {action: "poll"} triggers one; with snmpd killed the
// next poll records status "down" and last_error. The community never reaches a log line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../shared/logger.ts";
import { databaseListener } from "../../runtime/listen.ts";
import { createSnmpPoller, type SnmpPoller } from "../../sidecar/telemetry/poller.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { freeUdpPort, type Snmpd, startSnmpd } from "../helpers/snmpd.ts";

const COMMUNITY = "s3cret-ro-community";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let snmpd: Snmpd | undefined;
let port: number;
let hw: number;
let poller: SnmpPoller;
const logLines: string[] = [];
const clock = {
  at: new Date(),
  now: () => new Date(clock.at),
  advance: (ms: number) => void (clock.at = new Date(clock.at.getTime() + ms)),
};

beforeAll(async () => {
  t = await createTestApp();
  port = await freeUdpPort();
  // Ready once it answers (bounded); a missing package fails here saying so.
  snmpd = await startSnmpd({ address: "127.0.0.1", port, community: COMMUNITY });
  const [row] = await t.sql<{ id: number }[]>`insert into hardware (name) values ('snmp-lab') returning id`;
  hw = row!.id;
  await t.sql`insert into telemetry_configs (hardware_id, protocol, enabled, host, port, snmp_version, community, interval_s, options)
              values (${hw}, 'snmp', true, '127.0.0.1', ${port}, 'v2c', ${COMMUNITY}, 3600, ${t.sql.json({ timeout_ms: 300, retries: 0 })})`;
  poller = createSnmpPoller({
    db: t.runtime.database.db,
    clock,
    logger: jsonLogger("debug", (line) => logLines.push(line)),
    vault: t.runtime.deps.vault,
    listen: databaseListener(t.runtime.database),
    jitter: () => 0.999, // the hourly schedule stays out of the way; this test polls by hand and by NOTIFY
  });
  await poller.start();
});

afterAll(async () => {
  await poller?.stop();
  snmpd?.stop();
  await t?.close();
});

const rows = () =>
  t.sql`select ts, cpu_pct, mem_pct, disk_pct, uptime_s, status, source from hardware_live_metrics where hardware_id = ${hw} order by id`;
const pct = (n: number | null) => n != null && n >= 0 && n <= 100;

describe("SNMP poller against snmpd on loopback", () => {
  it("one poll stores a live-metric row with source snmp, status up and plausible values", async () => {
    expect(await poller.pollNow(hw)).toBe("polled");
    const [row] = await rows();
    expect(row).toMatchObject({ source: "snmp", status: "up" });
    expect(row!.uptime_s).toBeGreaterThan(0);
    expect(pct(row!.mem_pct) && pct(row!.disk_pct)).toBe(true);
    expect(row!.cpu_pct === null || pct(row!.cpu_pct)).toBe(true);
    const [hwRow] = await t.sql`select status from hardware where id = ${hw}`;
    expect(hwRow!.status).toBe("up");
    const [cfg] = await t.sql`select last_polled_at, last_error from telemetry_configs where hardware_id = ${hw}`;
    expect([cfg!.last_polled_at.getTime(), cfg!.last_error]).toEqual([clock.now().getTime(), null]);
  });

  it("reads CPU once the agent has load figures (hrProcessorLoad, or its raw counters across two polls)", async () => {
    // snmpd samples the CPU every 5 s and fills hrProcessorLoad after a minute: wait for the counters.
    let cpu: number | null = null;
    for (let i = 0; i < 30 && cpu == null; i++) {
      clock.advance(10_000);
      expect(await poller.pollNow(hw)).toBe("polled");
      cpu = (await rows()).at(-1)!.cpu_pct;
      if (cpu == null) await sleep(1000);
    }
    expect(pct(cpu)).toBe(true);
  });

  it("a NOTIFY telemetry {hardware_id, action: poll} makes the running poller poll now", async () => {
    clock.advance(10_000);
    const before = (await rows()).length;
    await t.sql`select pg_notify('telemetry', ${JSON.stringify({ hardware_id: hw, action: "poll" })})`;
    for (let i = 0; i < 100 && (await rows()).length === before; i++) await sleep(50);
    expect((await rows()).length).toBe(before + 1);
  });

  it("with snmpd gone the next poll records status down, last_error and a status transition", async () => {
    snmpd!.process.kill("SIGTERM");
    await new Promise((r) => snmpd!.process.once("exit", r));
    clock.advance(10_000);
    expect(await poller.pollNow(hw)).toBe("polled");
    const last = (await rows()).at(-1)!;
    expect(last).toMatchObject({ source: "snmp", status: "down", cpu_pct: null, mem_pct: null, uptime_s: null });
    const [cfg] = await t.sql`select last_error from telemetry_configs where hardware_id = ${hw}`;
    expect(cfg!.last_error).toMatch(/timed out/i);
    const history = await t.sql`select status, previous_status, severity from status_history where entity_id = ${hw} order by id`;
    expect(history.map((h) => [h.status, h.previous_status, h.severity])).toEqual([
      ["up", "unknown", "info"],
      ["down", "up", "warning"],
    ]);
    expect(logLines.some((l) => l.includes("snmp poll failed") && l.includes(`"hardware_id":${hw}`))).toBe(true);
  });

  it("never logs the community, and a poll of a node without a config is skipped, not thrown", async () => {
    await t.sql`update telemetry_configs set enabled = false where hardware_id = ${hw}`;
    clock.advance(10_000);
    expect(await poller.pollNow(hw)).toBe("skipped");
    expect(await poller.pollNow(424242)).toBe("skipped");
    expect(logLines.join("\n")).not.toContain(COMMUNITY);
  });
});
