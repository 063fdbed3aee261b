// TLS pins (issue 35 item 5): the pin of a certificate is the same from the agent (node:crypto), the
// server (@peculiar/x509) and openssl; the agent's pin set accepts what it should before and after a
// rotation's expiry and starts over when the configured pin changes; the device key rotation state
// orders its keys and keeps the key a link was accepted with.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesToHex } from "@noble/hashes/utils.js";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs } from "../../../agent/cli.ts";
import { DeviceKeys } from "../../../agent/device-key.ts";
import { silentLog } from "../../../agent/log.ts";
import { AgentState } from "../../../agent/state.ts";
import { certificatePin as agentPin, TlsPins } from "../../../agent/tls-pin.ts";
import { isTlsPin } from "../../../shared/agents/tls-pin.ts";
import { generateSelfSigned } from "../../../shared/verbs/certificates/x509.ts";
import { certificatePin as serverPin } from "../../../shared/verbs/agents/tls-pin.ts";

const dirs: string[] = [];
const stateDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "agent-pin-unit-"));
  dirs.push(dir);
  return new AgentState(dir);
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const pemToDer = (pem: string) => Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ""), "base64");
const PIN_A = Buffer.alloc(32, 1).toString("base64");
const PIN_B = Buffer.alloc(32, 2).toString("base64");
const hour = 3_600_000;

describe("the pin of a certificate", () => {
  it("is the base64 SHA-256 of its SubjectPublicKeyInfo, the same from the agent, the server and openssl", async () => {
    const { cert_pem } = await generateSelfSigned("pin.example", new Date());
    const fromAgent = agentPin(pemToDer(cert_pem));
    expect(isTlsPin(fromAgent)).toBe(true);
    expect(serverPin(cert_pem)).toBe(fromAgent);
    const spki = execFileSync("openssl", ["x509", "-pubkey", "-noout"], { input: cert_pem });
    const der = execFileSync("openssl", ["pkey", "-pubin", "-outform", "der"], { input: spki });
    const digest = execFileSync("openssl", ["dgst", "-sha256", "-binary"], { input: der });
    expect(digest.toString("base64")).toBe(fromAgent);
  });

  it("is checked where the agent takes it: --tls-pin and tls_pin", () => {
    expect(parseArgs(["--server", "https://x", "--tls-pin", PIN_A]).tlsPin).toBe(PIN_A);
    expect(parseArgs(["--config", "f"], () => `server_url = "https://x"\ntls_pin = "${PIN_B}"\n`).tlsPin).toBe(PIN_B);
    expect(() => parseArgs(["--server", "https://x", "--tls-pin", "abc"])).toThrow(/base64 SHA-256/);
  });
});

describe("the agent's pins", () => {
  it("without a pin, a CA-verified certificate only; with one, that pin whatever the CA (self_signed)", () => {
    const none = new TlsPins(stateDir(), undefined, silentLog);
    expect([none.accepts(PIN_A, true), none.accepts(PIN_A, false)]).toEqual([true, false]);
    expect(none.kind("https://x")).toBe("none");
    expect(none.kind("http://x")).toBeNull();
    const pinned = new TlsPins(stateDir(), PIN_A, silentLog);
    expect([pinned.accepts(PIN_A, false), pinned.accepts(PIN_B, true)]).toEqual([true, false]);
    expect(pinned.kind("https://x")).toBe("self_signed");
  });

  it("a rotation: both pins until the expiry, the successor alone after it; kept across restarts", () => {
    const state = stateDir();
    const now = new Date();
    const pins = new TlsPins(state, PIN_A, silentLog);
    const expiry = new Date(now.getTime() + hour).toISOString();
    expect(pins.adopt({ mode: "self_signed", successor_pin: PIN_B, expiry }, now)).toBe(true);
    expect(pins.adopt({ mode: "self_signed", successor_pin: PIN_B, expiry }, now)).toBe(false);
    expect(pins.pins(now)).toEqual([PIN_A, PIN_B]);
    const again = new TlsPins(state, PIN_A, silentLog);
    expect([again.accepts(PIN_A, false, now), again.accepts(PIN_B, false, now)]).toEqual([true, true]);
    const later = new Date(now.getTime() + 2 * hour);
    expect([again.accepts(PIN_A, false, later), again.accepts(PIN_B, false, later)]).toEqual([false, true]);
    expect(JSON.parse(readFileSync(join(state.dir, "tls-pins.json"), "utf8"))).toMatchObject({
      config_pin: PIN_A,
      current: { pin: PIN_B },
      successor: null,
    });
    // Another configured pin starts over from it.
    expect(new TlsPins(state, PIN_A.replace("A", "B"), silentLog).pins()).toEqual([PIN_A.replace("A", "B")]);
  });

  it("a public successor needs a CA-verified chain too; malformed or expired rotations are ignored", () => {
    const now = new Date();
    const pins = new TlsPins(stateDir(), undefined, silentLog);
    const expiry = new Date(now.getTime() + hour).toISOString();
    expect(pins.adopt({ mode: "public", successor_pin: PIN_B, expiry }, now)).toBe(true);
    expect([pins.accepts(PIN_B, false, now), pins.accepts(PIN_B, true, now)]).toEqual([false, true]);
    expect(pins.adopt({ mode: "public", successor_pin: "nope", expiry }, now)).toBe(false);
    expect(pins.adopt({ mode: "lenient", successor_pin: PIN_A, expiry }, now)).toBe(false);
    expect(pins.adopt({ mode: "public", successor_pin: PIN_A, expiry: new Date(now.getTime() - 1).toISOString() }, now)).toBe(false);
  });
});

describe("the device key rotation state", () => {
  it("tries the successor first until its expiry, the current key first after it, and keeps the key a link was accepted with", () => {
    const state = stateDir();
    const now = new Date();
    const keys = new DeviceKeys(state);
    const current = keys.candidates(now)[0]!;
    const s = keys.makeSuccessor(now, hour);
    expect(keys.candidates(now)).toEqual([s.pair, current]);
    expect(keys.candidates(new Date(now.getTime() + 2 * hour))).toEqual([current, s.pair]);
    // A restart reads the successor back.
    const reread = new DeviceKeys(state);
    expect(reread.successor?.publicKey).toBe(s.publicKey);
    expect(reread.linkedWith(reread.candidates(now)[1]!, now)).toBeUndefined();
    expect(reread.linkedWith(reread.successor!.pair, now)).toBe("promoted");
    expect(new DeviceKeys(state).publicKey).toBe(s.publicKey);
    expect(new DeviceKeys(state).successor).toBeNull();
  });

  it("a refusal forgets the successor; the current key linked past the expiry drops it", () => {
    const now = new Date();
    const keys = new DeviceKeys(stateDir());
    const first = keys.makeSuccessor(now, hour);
    expect(keys.answered(bytesToHex(new Uint8Array(32)), false)).toBe(false);
    expect(keys.answered(first.publicKey, false)).toBe(true);
    expect(keys.successor).toBeNull();
    keys.makeSuccessor(now, hour);
    const current = keys.candidates(now)[1]!;
    expect(keys.linkedWith(current, new Date(now.getTime() + 2 * hour))).toBe("dropped");
    expect(keys.successor).toBeNull();
  });
});
