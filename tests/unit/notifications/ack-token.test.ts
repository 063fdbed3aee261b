// The acknowledge link's token (shared/domain/notifications/ack-token.ts): what it carries, and that any
// change to it, another server's key or a malformed shape is refused.
import { describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { ACK_TOKEN_PATTERN, mintAckToken, verifyAckToken } from "../../../shared/domain/notifications/ack-token.ts";

const key = new Uint8Array(32).fill(1);
const expires_at = new Date("2026-11-30T08:00:00Z");

describe("acknowledge tokens", () => {
  it("carry the incident, the sink, the expiry (seconds) and a fresh nonce", () => {
    const a = mintAckToken(key, { incident_id: 42, sink_id: 7, expires_at }, cryptoRandom);
    const b = mintAckToken(key, { incident_id: 42, sink_id: 7, expires_at }, cryptoRandom);
    expect(a).toMatch(ACK_TOKEN_PATTERN);
    expect(a).not.toBe(b);
    const claims = verifyAckToken(key, a);
    expect(claims).toMatchObject({ incident_id: 42, sink_id: 7, expires_at });
    expect(claims!.nonce).toHaveLength(22);
    expect(verifyAckToken(key, b)!.nonce).not.toBe(claims!.nonce);
  });

  it("refuses a changed field, another key's token and malformed text", () => {
    const token = mintAckToken(key, { incident_id: 42, sink_id: 7, expires_at }, cryptoRandom);
    const [incident, exp, sink, nonce, mac] = token.split(".");
    for (const forged of [
      [43, exp, sink, nonce, mac],
      [incident, Number(exp) + 3600, sink, nonce, mac],
      [incident, exp, 8, nonce, mac],
      [incident, exp, sink, `${nonce!.slice(0, -1)}${nonce!.endsWith("A") ? "B" : "A"}`, mac],
      [incident, exp, sink, nonce, `${mac!.slice(0, -1)}${mac!.endsWith("A") ? "B" : "A"}`],
    ])
      expect(verifyAckToken(key, forged.join("."))).toBeNull();
    expect(verifyAckToken(new Uint8Array(32).fill(2), token)).toBeNull();
    for (const bad of ["", "x", `${token}.`, token.replace(/\./g, "-"), `-1.${token.slice(token.indexOf(".") + 1)}`])
      expect(verifyAckToken(key, bad)).toBeNull();
  });
});
