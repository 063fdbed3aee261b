// snmp: one GET of config.oid (v1 or v2c with a community, or v3 with a USM user; the community and the
// v3 keys are secrets) through the SNMP session the telemetry poller and the discovery share
// (net/snmp-session.ts), to the address the monitor policy allowed (pinned.ts). Up when the agent answers
// a value and, with an `operator` and `expected_value`, the value compares as asked; the message shows the
// value. An OID the agent does not have (noSuchObject, noSuchInstance, v1's noSuchName) is down; a v2c
// agent answers a wrong community with silence, and a v3 agent a wrong privacy key, so those are a
// timeout; a wrong v3 user or auth key is the agent's USM report. Latency: the GET's round trip (for v3
// the engine discovery before it too); a numeric value is also an `snmp_value` sample.
import { isIP } from "node:net";
import snmp, { type Session, type Varbind } from "net-snmp";
import { NUMERIC_OID, SNMP_OPERATORS, SNMP_VERSIONS } from "../../shared/domain/monitors/snmp-mqtt-docker-check-types.ts";
import { type SnmpV3User, snmpV3ConfigProblem, snmpV3UserOf } from "../../shared/domain/monitors/snmp-v3-fields.ts";
import { openSnmpSession } from "../snmp-session.ts";
import { pinnedAddress, untilAborted } from "./pinned.ts";
import {
  type Check,
  type CheckSample,
  CheckConfigError,
  ConfigReader,
  elapsed,
  failed,
  invalidConfig,
  reasonOf,
  succeeded,
} from "./result.ts";

type Operator = (typeof SNMP_OPERATORS)[number];

interface Comparison {
  operator: Operator;
  expected: string;
}

const T = snmp.ObjectType;
/** The operators that compare numbers only. */
const ORDERED = new Set<Operator>([">", ">=", "<", "<="]);
// biome-ignore lint/suspicious/noControlCharactersInRegex: a string with control characters is shown as hex
const BINARY = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** The varbind's value as text: a printable OctetString as is, other bytes as hex, a Counter64 in full. */
export function snmpValueText(vb: Varbind): string {
  const value = vb.value;
  if (Buffer.isBuffer(value)) {
    if (vb.type === T.Counter64) return value.length === 0 ? "0" : BigInt(`0x${value.toString("hex")}`).toString();
    const text = value.toString("utf8");
    return vb.type === T.OctetString && !BINARY.test(text) && !text.includes("\uFFFD") ? text : `0x${value.toString("hex")}`;
  }
  return String(value);
}

/** The number a value stands for, or null when it is not one. */
const numberOf = (text: string): number | null => {
  const n = text.trim() === "" ? Number.NaN : Number(text);
  return Number.isFinite(n) ? n : null;
};

/** Null when the value passes, else why not. `==` and `!=` compare numbers as numbers ("1.0" == "1"), else as text. */
export function compareSnmpValue(got: string, { operator, expected }: Comparison): string | null {
  const shown = `value ${JSON.stringify(got)}`;
  if (operator === "contains") return got.includes(expected) ? null : `${shown} does not contain ${JSON.stringify(expected)}`;
  const a = numberOf(got);
  const b = numberOf(expected);
  if (operator === "==" || operator === "!=") {
    const equal = a !== null && b !== null ? a === b : got === expected;
    return equal === (operator === "==") ? null : `${shown} is ${operator === "==" ? "not " : ""}${JSON.stringify(expected)}`;
  }
  // The config's expected value was checked to be a number for these operators (snmpCheck).
  if (a === null || b === null) return `${shown} is not a number, cannot compare ${operator} ${expected}`;
  const pass = operator === ">" ? a > b : operator === ">=" ? a >= b : operator === "<" ? a < b : a <= b;
  return pass ? null : `${shown} is not ${operator} ${expected}`;
}

function snmpGetOne(session: Session, oid: string): Promise<Varbind> {
  return new Promise((resolve, reject) =>
    session.get([oid], (error, varbinds) => {
      if (error) return reject(error);
      const vb = varbinds[0];
      return vb ? resolve(vb) : reject(new Error("the agent answered no varbind"));
    }),
  );
}

/** What an agent's USM report (RFC 3414 3.2, net-snmp's EAuthFailure) means for the monitor's config. */
const USM_REPORTS: Record<string, string> = {
  "Unknown User Name": "unknown user name",
  "Wrong Digest (incorrect password, community or key)": "wrong digest: a wrong auth key or auth protocol",
  "Unsupported Security Level": "the agent does not offer this user that security level",
  "Decryption Error": "decryption error: a wrong privacy key or privacy protocol",
  "Not In Time Window": "not in the agent's time window",
};

/** Why an SNMP request failed, in the words a user can act on. */
function snmpReason(e: unknown, v3: boolean): string {
  const err = e as { name?: string; message?: string; code?: number };
  if (err?.name === "RequestTimedOutError")
    return `timeout: no answer (${v3 ? "a wrong privacy key or privacy protocol" : "a wrong community"}, an ACL, or no agent at this port)`;
  if (err?.name === "RequestFailedError") return `the agent refused the request: ${err.message}`;
  if (err?.name === "ResponseInvalidError" && err.code === snmp.ResponseInvalidCode.EAuthFailure)
    return `SNMPv3 authentication failed: ${USM_REPORTS[err.message ?? ""] ?? err.message}`;
  if (err?.name === "ResponseInvalidError") return `not an SNMP answer: ${err.message}`;
  return `request failed: ${reasonOf(e)}`;
}

export const snmpCheck: Check = async (spec, signal, timeoutMs) => {
  let port: number;
  let version: string;
  let credentials: string | SnmpV3User;
  let oid: string;
  let comparison: Comparison | null = null;
  try {
    const config = new ConfigReader(spec.config);
    port = config.number("port", 161);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
    version = config.string("version", "v2c");
    if (!(SNMP_VERSIONS as readonly string[]).includes(version))
      throw new CheckConfigError(`version must be one of ${SNMP_VERSIONS.join(", ")}`);
    const problem = snmpV3ConfigProblem({ ...spec.config, version });
    if (problem !== null) throw new CheckConfigError(problem);
    credentials = version === "v3" ? snmpV3UserOf(spec.config) : config.string("community", "public");
    const given = config.string("oid", null);
    if (given === null) throw new CheckConfigError("oid is required");
    if (!NUMERIC_OID.test(given)) throw new CheckConfigError(`oid ${JSON.stringify(given.slice(0, 200))} is not a numeric OID`);
    oid = given.replace(/^\./, "");
    const operator = config.string("operator", null);
    const expected = config.string("expected_value", null);
    if (operator !== null && !(SNMP_OPERATORS as readonly string[]).includes(operator))
      throw new CheckConfigError(`operator must be one of ${SNMP_OPERATORS.join(" ")}`);
    if (operator !== null && expected === null) throw new CheckConfigError(`operator ${operator} needs an expected_value`);
    // An expected value alone is an equality test.
    if (expected !== null) comparison = { operator: (operator ?? "==") as Operator, expected };
    if (comparison && ORDERED.has(comparison.operator) && numberOf(comparison.expected) === null)
      throw new CheckConfigError(`expected_value must be a number for ${comparison.operator}`);
  } catch (e) {
    return invalidConfig(e);
  }
  let session: Session | null = null;
  // Called on abort and again when done: closing a closed session throws (ERR_SOCKET_DGRAM_NOT_RUNNING).
  const close = () => {
    const open = session;
    session = null;
    try {
      open?.close();
    } catch {}
  };
  const start = performance.now();
  try {
    const address = await untilAborted(pinnedAddress(spec), signal, () => {});
    session = openSnmpSession(address, credentials, {
      port,
      version,
      timeoutMs,
      retries: 0,
      transport: isIP(address) === 6 ? "udp6" : "udp4",
    });
    const vb = await untilAborted(snmpGetOne(session, oid), signal, close);
    const latency = elapsed(start);
    if (snmp.isVarbindError(vb)) return failed(`${oid}: ${T[vb.type] ?? `error type ${vb.type}`}`, latency);
    const text = snmpValueText(vb);
    const numeric = typeof vb.value === "number" ? vb.value : null;
    const extra: CheckSample[] = numeric !== null ? [{ metric: "snmp_value", value: numeric }] : [];
    const shown = `${oid} = ${T[vb.type] ?? vb.type}: ${JSON.stringify(text.slice(0, 500))}`;
    const problem = comparison ? compareSnmpValue(text, comparison) : null;
    return problem ? failed(`${problem} (${shown})`, latency, extra) : succeeded(shown, latency, extra);
  } catch (e) {
    return failed(signal.aborted ? "timeout" : snmpReason(e, version === "v3"), signal.aborted ? null : elapsed(start));
  } finally {
    close();
  }
};
