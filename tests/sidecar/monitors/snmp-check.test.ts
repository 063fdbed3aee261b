// The snmp check against Debian's real snmpd on a loopback port (tests/helpers/snmpd.ts), configured by
// this test: up with the value in the message, a value compared up and down (numbers and text), v1 as
// well as v2c, down on an OID the agent does not have, a wrong community answered by silence (timeout),
// an invalid config without sending anything, and the monitor policy's refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXECUTORS, runCheck } from "../../../net/checks/run-check.ts";
import { freeUdpPort, type Snmpd, startSnmpd } from "../../helpers/snmpd.ts";

const COMMUNITY = "check-ro-7f3a";
const SYS_NAME = "1.3.6.1.2.1.1.5.0";
const SYS_SERVICES = "1.3.6.1.2.1.1.7.0";
let agent: Snmpd;
let port: number;

beforeAll(async () => {
  port = await freeUdpPort();
  agent = await startSnmpd({
    address: "127.0.0.1",
    port,
    community: COMMUNITY,
    lines: ["sysName check-target.example.test", "sysServices 72", "sysLocation rack 4"],
  });
});
afterAll(() => agent?.stop());

const check = (config: Record<string, unknown>, host = "127.0.0.1") =>
  runCheck({ check_type: "snmp", host, config: { port, community: COMMUNITY, ...config } });

describe("snmp check", () => {
  it("is up on any value answered, showing it, with the round trip as latency", async () => {
    const r = await check({ oid: SYS_NAME });
    expect(r).toMatchObject({ up: true, msg: `${SYS_NAME} = OctetString: "check-target.example.test"` });
    expect(r.samples).toEqual(
      expect.arrayContaining([
        { metric: "avail", value: 1 },
        { metric: "latency_ms", value: r.latency_ms },
      ]),
    );
    // A leading dot is the same OID; v1 reads it too.
    expect(await check({ oid: `.${SYS_NAME}`, version: "v1" })).toMatchObject({ up: true });
  });

  it("compares a number with each operator, and keeps it as a sample", async () => {
    const up = await check({ oid: SYS_SERVICES, operator: ">=", expected_value: "72" });
    expect(up).toMatchObject({ up: true, msg: `${SYS_SERVICES} = Integer: "72"` });
    expect(up.samples).toContainEqual({ metric: "snmp_value", value: 72 });
    expect(await check({ oid: SYS_SERVICES, expected_value: "72.0" })).toMatchObject({ up: true });
    expect(await check({ oid: SYS_SERVICES, operator: "!=", expected_value: "1" })).toMatchObject({ up: true });
    const down = await check({ oid: SYS_SERVICES, operator: "<", expected_value: "10" });
    expect(down).toMatchObject({ up: false, msg: `value "72" is not < 10 (${SYS_SERVICES} = Integer: "72")` });
    expect(down.latency_ms).not.toBeNull();
    expect(await check({ oid: SYS_SERVICES, operator: "==", expected_value: "71" })).toMatchObject({
      up: false,
      msg: expect.stringMatching(/^value "72" is not "71"/),
    });
  });

  it("compares text: contains, equality, and an ordering of text is down saying so", async () => {
    expect(await check({ oid: SYS_NAME, operator: "contains", expected_value: "target" })).toMatchObject({ up: true });
    expect(await check({ oid: SYS_NAME, operator: "contains", expected_value: "router" })).toMatchObject({
      up: false,
      msg: expect.stringMatching(/^value "check-target\.example\.test" does not contain "router"/),
    });
    expect(await check({ oid: SYS_NAME, operator: "==", expected_value: "check-target.example.test" })).toMatchObject({ up: true });
    expect(await check({ oid: SYS_NAME, operator: ">", expected_value: "3" })).toMatchObject({
      up: false,
      msg: expect.stringMatching(/is not a number, cannot compare > 3/),
    });
  });

  it("is down on an OID the agent does not have (noSuchObject; v1's noSuchName)", async () => {
    const missing = "1.3.6.1.4.1.99999.1.0";
    expect(await check({ oid: missing })).toMatchObject({ up: false, msg: `${missing}: NoSuchObject` });
    const v1 = await check({ oid: missing, version: "v1" });
    expect(v1.up).toBe(false);
    expect(v1.msg).toMatch(/^the agent refused the request: NoSuchName/);
  });

  it("answers a wrong community with a timeout: a v2c agent says nothing", async () => {
    const r = await check({ oid: SYS_NAME, community: "wrong", timeout: 0.5 });
    expect(r.up).toBe(false);
    expect(r.msg).toMatch(/^timeout/);
  });

  it("answers an invalid config without asking the agent", async () => {
    expect(await check({ oid: "sysName.0" })).toMatchObject({
      invalid_config: true,
      msg: 'invalid config: oid "sysName.0" is not a numeric OID',
    });
    expect(await check({})).toMatchObject({ invalid_config: true, msg: "invalid config: oid is required" });
    expect(await check({ oid: SYS_NAME, operator: ">" })).toMatchObject({
      invalid_config: true,
      msg: "invalid config: operator > needs an expected_value",
    });
    expect(await check({ oid: SYS_NAME, operator: "<=", expected_value: "many" })).toMatchObject({ invalid_config: true });
    expect(await check({ oid: SYS_NAME, version: "v3" })).toMatchObject({ invalid_config: true });
  });

  it("is refused by the monitor policy before any request", async () => {
    const r = await runCheck(
      { check_type: "snmp", host: "127.0.0.1", config: { port, community: COMMUNITY, oid: SYS_NAME } },
      { policy: { allow_private: true, allow_loopback: false } },
    );
    expect(r).toMatchObject({ up: false, msg: expect.stringMatching(/refused by the monitor policy.*loopback/) });
  });

  it("runs as the reference agent runs it: the executor alone, on the monitor's host only", async () => {
    const spec = { check_type: "snmp" as const, host: "127.0.0.1", config: { port, community: COMMUNITY, oid: SYS_NAME }, hostOnly: true };
    expect(await EXECUTORS.snmp({})(spec, AbortSignal.timeout(5000), 2000)).toMatchObject({ up: true });
  });
});
