import { describe, expect, it } from "vitest";
import { mintCsrfToken, verifyCsrfToken } from "../../../shared/auth/csrf-token.ts";
import { cryptoRandom, type Random } from "../../../shared/clock.ts";

const KEY = Uint8Array.from({ length: 32 }, (_, i) => i);
const SID = "00000000-0000-4000-8000-000000000001";
const zeros: Random = { bytes: (n) => new Uint8Array(n), uuid: () => "" };
// Computed with Python: k = HKDF-SHA256(ikm=KEY, salt=None, info=b"svc-control-plane csrf-token v1", 32);
// mac = HMAC-SHA256(k, f"{len(sid)}!{sid}!{len(nonce)}!{nonce}"), both halves unpadded base64url.
const KNOWN = `${"A".repeat(43)}.RmBaXsCRtvgX_F6hejzLowMbFw7efqm3JO_8kTOS6Hc`;

describe("session-bound CSRF tokens", () => {
  it("match an independently computed vector", () => {
    expect(mintCsrfToken(KEY, SID, zeros)).toBe(KNOWN);
    expect(verifyCsrfToken(KEY, SID, KNOWN)).toBe(true);
  });

  it("are fresh each time and verify only for their session and key", () => {
    const a = mintCsrfToken(KEY, SID, cryptoRandom);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(mintCsrfToken(KEY, SID, cryptoRandom)).not.toBe(a);
    expect(verifyCsrfToken(KEY, SID, a)).toBe(true);
    expect(verifyCsrfToken(KEY, "00000000-0000-4000-8000-000000000002", a)).toBe(false);
    expect(verifyCsrfToken(new Uint8Array(32), SID, a)).toBe(false);
  });

  it("refuse anything not of the minted shape", () => {
    for (const bad of ["", ".", KNOWN.slice(0, -1), `${KNOWN}A`, KNOWN.replace(".", "-"), ` ${KNOWN}`, `${KNOWN}.x`])
      expect(verifyCsrfToken(KEY, SID, bad), bad).toBe(false);
  });
});
