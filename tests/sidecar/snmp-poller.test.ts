// The SNMP poller against a real snmpd from Debian on loopback (.ci/run installs the package; this test
// installs nothing and fails saying so when snmpd is missing). One poll through the poller's own code
// path stores a plausible "snmp" row; a NOTIFY {action: "poll"} triggers one; with snmpd killed the
// next poll records status "down" and last_error. The community never reaches a log line.
import { type ChildProcess, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../shared/logger.ts";
import { databaseListener } from "../../runtime/listen.ts";
import { createSnmpPoller, type SnmpPoller } from "../../sidecar/telemetry/poller.ts";
import { readSnmp } from "../../sidecar/telemetry/snmp-read.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

const COMMUNITY = "s3cret-ro-community";

function findSnmpd(): string {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/sbin"];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, "snmpd"), constants.X_OK);
      return join(dir, "snmpd");
    } catch {}
  }
  throw new Error("snmpd is not installed: this test needs Debian's snmpd package (.ci/run installs it: apt-get install snmpd).");
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let dir: string;
let snmpd: ChildProcess | undefined;
let port: number;
let hw: number;
let poller: SnmpPoller;
const logLines: string[] = [];
const clock = { at: new Date(), now: () => new Date(clock.at), advance: (ms: number) => void (clock.at = new Date(clock.at.getTime() + ms)) };
const target = () => ({ hardware_id: hw, host: "127.0.0.1", port, snmp_version: "v2c" as const, community: COMMUNITY, options: { timeout_ms: 300, retries: 0 } });

beforeAll(async () => {
  const binary = findSnmpd();
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), "snmpd-"));
  port = await freeUdpPort();
  const conf = join(dir, "snmpd.conf");
  writeFileSync(conf, `agentAddress udp:127.0.0.1:${port}\nrocommunity ${COMMUNITY} 127.0.0.1\n`);
  snmpd = spawn(binary, ["-f", "-Lo", "-C", "-c", conf], { env: { ...process.env, SNMP_PERSISTENT_DIR: dir, MIBS: "" }, stdio: "ignore" });
  // Ready when it answers sysUpTime (bounded: a daemon that never answers fails the test below).
  for (let i = 0; i < 50; i++) {
    if (await readSnmp(target(), undefined).then(() => true, () => false)) break;
    await sleep(100);
  }
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
  snmpd?.kill("SIGKILL");
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rows = () => t.sql`select ts, cpu_pct, mem_pct, disk_pct, uptime_s, status, source from hardware_live_metrics where hardware_id = ${hw} order by id`;
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
    snmpd!.kill("SIGTERM");
    await new Promise((r) => snmpd!.once("exit", r));
    clock.advance(10_000);
    expect(await poller.pollNow(hw)).toBe("polled");
    const last = (await rows()).at(-1)!;
    expect(last).toMatchObject({ source: "snmp", status: "down", cpu_pct: null, mem_pct: null, uptime_s: null });
    const [cfg] = await t.sql`select last_error from telemetry_configs where hardware_id = ${hw}`;
    expect(cfg!.last_error).toMatch(/timed out/i);
    const history = await t.sql`select status, previous_status, severity from status_history where entity_id = ${hw} order by id`;
    expect(history.map((h) => [h.status, h.previous_status, h.severity])).toEqual([["up", "unknown", "info"], ["down", "up", "warning"]]);
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
