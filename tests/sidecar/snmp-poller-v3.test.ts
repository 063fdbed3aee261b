// SNMPv3 telemetry polls (docs/adr/0489) against a real Debian snmpd on loopback with USM users: a
// configuration written through the API at authPriv and at authNoPriv polls up through the poller's own
// code path; a wrong auth key records the poll down with the agent's authentication report as
// last_error; the keys never reach a log line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../shared/logger.ts";
import { createSnmpPoller, type SnmpPoller } from "../../sidecar/telemetry/poller.ts";
import { createTelemetryActors, type TelemetryActors } from "../api/telemetry/support.ts";
import { freeUdpPort, type Snmpd, startSnmpd } from "../helpers/snmpd.ts";

const AUTH_KEY = "poll-auth-pass-1";
const PRIV_KEY = "poll-priv-pass-1";

let a: TelemetryActors;
let snmpd: Snmpd | undefined;
let port: number;
let poller: SnmpPoller;
const logLines: string[] = [];
const clock = {
  at: new Date(),
  now: () => new Date(clock.at),
  advance: (ms: number) => void (clock.at = new Date(clock.at.getTime() + ms)),
};

beforeAll(async () => {
  a = await createTelemetryActors();
  port = await freeUdpPort();
  snmpd = await startSnmpd({
    address: "127.0.0.1",
    port,
    community: "unused-v2c-community",
    lines: [
      `createUser pollpriv SHA-256 "${AUTH_KEY}" AES "${PRIV_KEY}"`,
      "rouser pollpriv priv",
      `createUser pollauth SHA "${AUTH_KEY}"`,
      "rouser pollauth auth",
    ],
  });
  poller = createSnmpPoller({
    db: a.t.runtime.database.db,
    clock,
    logger: jsonLogger("debug", (line) => logLines.push(line)),
    vault: a.t.runtime.deps.vault,
    listen: undefined,
    jitter: () => 0.999,
  });
  await poller.start();
});

afterAll(async () => {
  await poller?.stop();
  snmpd?.stop();
  await a?.t.close();
});

async function node(name: string, body: Record<string, unknown>): Promise<number> {
  const id = await a.node(name);
  const res = await a.req("POST", `hardware/${id}/telemetry/config`, a.editor, {
    host: "127.0.0.1",
    port,
    interval_s: 3600,
    options: { timeout_ms: 500, retries: 0 },
    snmp_version: "v3",
    ...body,
  });
  expect(res.status).toBe(200);
  return id;
}

const last = async (id: number) =>
  (await a.t.sql`select status, uptime_s from hardware_live_metrics where hardware_id = ${id} order by id desc limit 1`)[0];
const lastError = async (id: number) => (await a.t.sql`select last_error from telemetry_configs where hardware_id = ${id}`)[0]!.last_error;

describe("SNMPv3 polls against snmpd", () => {
  it("polls an authPriv user (SHA-256, AES) and an authNoPriv user (SHA) up", async () => {
    const priv = await node("v3-priv", {
      username: "pollpriv",
      security_level: "authPriv",
      auth_protocol: "SHA-256",
      auth_key: AUTH_KEY,
      priv_protocol: "AES",
      priv_key: PRIV_KEY,
    });
    const auth = await node("v3-auth", { username: "pollauth", security_level: "authNoPriv", auth_protocol: "SHA", auth_key: AUTH_KEY });
    for (const id of [priv, auth]) {
      expect(await poller.pollNow(id)).toBe("polled");
      expect(await last(id)).toMatchObject({ status: "up" });
      expect((await last(id))!.uptime_s).toBeGreaterThan(0);
      expect(await lastError(id)).toBeNull();
    }
  });

  it("a wrong auth key is a down poll whose last_error says authentication failed; no key is ever logged", async () => {
    const id = await node("v3-wrong", {
      username: "pollauth",
      security_level: "authNoPriv",
      auth_protocol: "SHA",
      auth_key: "not-the-right-key",
    });
    clock.advance(10_000);
    expect(await poller.pollNow(id)).toBe("polled");
    expect(await last(id)).toMatchObject({ status: "down" });
    expect(await lastError(id)).toMatch(/authentication|digest|wrong/i);
    const logs = logLines.join("\n");
    for (const secret of [AUTH_KEY, PRIV_KEY, "not-the-right-key"]) expect(logs).not.toContain(secret);
  });
});
