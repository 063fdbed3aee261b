// The snmp check against Debian's real snmpd on a loopback port (tests/helpers/snmpd.ts), configured by
// this test: up with the value in the message, a value compared up and down (numbers and text), v1 as
// well as v2c, down on an OID the agent does not have, a wrong community answered by silence (timeout),
// SNMPv3 users at each security level (createUser/rouser lines; a wrong auth key or user name is the
// agent's USM report, a wrong privacy key silence), an invalid config without sending anything, and the
// monitor policy's refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXECUTORS, runCheck } from "../../../net/checks/run-check.ts";
import { freeUdpPort, type Snmpd, startSnmpd } from "../../helpers/snmpd.ts";

const COMMUNITY = "check-ro-7f3a";
const SYS_NAME = "1.3.6.1.2.1.1.5.0";
const SYS_SERVICES = "1.3.6.1.2.1.1.7.0";
const AUTH_KEY = "authpass123";
const PRIV_KEY = "privpass123";
let agent: Snmpd;
let port: number;

beforeAll(async () => {
  port = await freeUdpPort();
  agent = await startSnmpd({
    address: "127.0.0.1",
    port,
    community: COMMUNITY,
    lines: [
      "sysName check-target.example.test",
      "sysServices 72",
      "sysLocation rack 4",
      // SNMPv3 users (USM): authPriv with SHA/AES and SHA-512/AES-256, authNoPriv, noAuthNoPriv.
      `createUser bench SHA "${AUTH_KEY}" AES "${PRIV_KEY}"`,
      "rouser bench priv",
      `createUser bench512 SHA-512 "${AUTH_KEY}" AES256 "${PRIV_KEY}"`,
      "rouser bench512 priv",
      `createUser signer SHA-256 "${AUTH_KEY}"`,
      "rouser signer auth",
      "createUser guest",
      "rouser guest noauth",
    ],
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

  describe("SNMPv3", () => {
    const v3 = (config: Record<string, unknown>) => check({ oid: SYS_NAME, version: "v3", community: null, ...config });
    const bench = { username: "bench", security_level: "authPriv", auth_key: AUTH_KEY, priv_key: PRIV_KEY };

    it("reads with an authPriv user (SHA and AES by default; SHA-512 with AES-256), authNoPriv and noAuthNoPriv", async () => {
      const r = await v3(bench);
      expect(r).toMatchObject({ up: true, msg: `${SYS_NAME} = OctetString: "check-target.example.test"` });
      expect(r.latency_ms).not.toBeNull();
      expect(await v3({ ...bench, auth_protocol: "SHA", priv_protocol: "AES" })).toMatchObject({ up: true });
      expect(
        await v3({ ...bench, username: "bench512", auth_protocol: "SHA-512", priv_protocol: "AES-256-B", oid: SYS_SERVICES }),
      ).toMatchObject({ up: true, msg: `${SYS_SERVICES} = Integer: "72"` });
      expect(await v3({ username: "signer", security_level: "authNoPriv", auth_protocol: "SHA-256", auth_key: AUTH_KEY })).toMatchObject({
        up: true,
      });
      expect(await v3({ username: "guest", security_level: "noAuthNoPriv" })).toMatchObject({ up: true });
      // noAuthNoPriv is the default level.
      expect(await v3({ username: "guest" })).toMatchObject({ up: true });
    });

    it("is down with the agent's USM report on a wrong auth key or an unknown user", async () => {
      const wrong = await v3({ ...bench, auth_key: "not-the-auth-key" });
      expect(wrong).toMatchObject({ up: false, msg: "SNMPv3 authentication failed: wrong digest: a wrong auth key or auth protocol" });
      expect(wrong.latency_ms).not.toBeNull();
      expect(await v3({ ...bench, auth_protocol: "SHA-256" })).toMatchObject({ up: false, msg: /wrong digest/ });
      expect(await v3({ ...bench, username: "mallory" })).toMatchObject({
        up: false,
        msg: "SNMPv3 authentication failed: unknown user name",
      });
    });

    it("is refused below the user's security level, and times out on a wrong privacy key (the agent cannot decrypt it)", async () => {
      const low = await v3({ username: "bench", security_level: "authNoPriv", auth_key: AUTH_KEY });
      expect(low).toMatchObject({ up: false, msg: "the agent refused the request: AuthorizationError" });
      const priv = await v3({ ...bench, priv_key: "not-the-priv-key", timeout: 0.5 });
      expect(priv.up).toBe(false);
      expect(priv.msg).toMatch(/^timeout/);
    });

    it("answers an incomplete v3 config as invalid, naming the key", async () => {
      expect(await v3({ username: "bench", security_level: "authPriv", auth_key: AUTH_KEY })).toMatchObject({
        invalid_config: true,
        msg: "invalid config: priv_key: Required for security level authPriv.",
      });
      expect(await v3({ ...bench, auth_key: "short" })).toMatchObject({
        invalid_config: true,
        msg: expect.stringMatching(/^invalid config: auth_key: Must be at least 8 characters/),
      });
      expect(await v3({ security_level: "noAuthNoPriv" })).toMatchObject({
        invalid_config: true,
        msg: "invalid config: username: Required for SNMPv3.",
      });
      expect(await v3({ ...bench, community: COMMUNITY })).toMatchObject({ invalid_config: true, msg: /^invalid config: community:/ });
      expect(await check({ oid: SYS_NAME, username: "bench" })).toMatchObject({
        invalid_config: true,
        msg: "invalid config: username: Only with version v3.",
      });
    });
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
    expect(await check({ oid: SYS_NAME, version: "v4" })).toMatchObject({ invalid_config: true });
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
