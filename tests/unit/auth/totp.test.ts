import { describe, expect, it } from "vitest";
import { bytesToBase32, utf8Bytes } from "../../../shared/auth/encoding.ts";
import { generateTotpSecret, hotp, otpauthUri, totpCode, totpStep, verifyTotp } from "../../../shared/auth/totp.ts";

// RFC 6238 appendix B, SHA1 rows: the secret is the ASCII string "12345678901234567890".
const SECRET = bytesToBase32(utf8Bytes("12345678901234567890"));
const RFC6238: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];
// RFC 4226 appendix D: HOTP values for counters 0..9 with the same secret.
const RFC4226 = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];

const T = 1_700_000_000_000; // a fixed "now", on a step boundary plus 20 s
const step = totpStep(T);

describe("codes", () => {
  it.each(RFC6238)("RFC 6238 at %i s -> %s (8 digits)", (seconds, code) => {
    expect(totpCode(SECRET, seconds * 1000, { digits: 8 })).toBe(code);
    expect(verifyTotp(SECRET, code, seconds * 1000, { digits: 8, window: 0 })).toEqual({
      ok: true,
      step: Math.floor(seconds / 30),
    });
  });

  it.each(RFC6238)("at %i s the 6-digit code is the last six digits", (seconds, code) => {
    expect(totpCode(SECRET, seconds * 1000)).toBe(code.slice(2));
  });

  it("RFC 4226 HOTP vectors", () => {
    const key = utf8Bytes("12345678901234567890");
    for (const [counter, code] of RFC4226.entries()) expect(hotp(key, counter)).toBe(code);
  });

  it("the secret may be given in lower case, with spaces", () => {
    const spaced = SECRET.toLowerCase().replace(/(.{4})/g, "$1 ");
    expect(totpCode(spaced, 59_000, { digits: 8 })).toBe("94287082");
  });

  it("a code holds for its whole 30-second step", () => {
    expect(totpCode(SECRET, 30_000)).toBe(totpCode(SECRET, 59_999));
    expect(totpCode(SECRET, 59_999)).not.toBe(totpCode(SECRET, 60_000));
  });

  it("throws on a secret that is not base32", () => {
    expect(() => totpCode("not base32!", T)).toThrow(TypeError);
    expect(() => totpCode("", T)).toThrow(TypeError);
    expect(() => totpCode(SECRET, T, { digits: 5 })).toThrow(RangeError);
  });
});

describe("verifyTotp", () => {
  it("accepts the current step and one either side by default, not two", () => {
    for (const offset of [-1, 0, 1]) {
      const code = totpCode(SECRET, T + offset * 30_000);
      expect(verifyTotp(SECRET, code, T)).toEqual({ ok: true, step: step + offset });
    }
    for (const offset of [-2, 2, -10, 10]) {
      expect(verifyTotp(SECRET, totpCode(SECRET, T + offset * 30_000), T)).toEqual({ ok: false, step: null });
    }
  });

  it("honours a wider or a zero window", () => {
    const twoBack = totpCode(SECRET, T - 60_000);
    expect(verifyTotp(SECRET, twoBack, T, { window: 2 })).toEqual({ ok: true, step: step - 2 });
    const oneAhead = totpCode(SECRET, T + 30_000);
    expect(verifyTotp(SECRET, oneAhead, T, { window: 0 }).ok).toBe(false);
    expect(verifyTotp(SECRET, totpCode(SECRET, T), T, { window: 0 })).toEqual({ ok: true, step });
  });

  it("refuses a replay: a step at or before lastStep", () => {
    const code = totpCode(SECRET, T);
    const first = verifyTotp(SECRET, code, T);
    expect(first).toEqual({ ok: true, step });
    expect(verifyTotp(SECRET, code, T, { lastStep: first.step })).toEqual({ ok: false, step: null });
    expect(verifyTotp(SECRET, code, T + 30_000, { lastStep: step })).toEqual({ ok: false, step: null });
    // An older code inside the window is refused once a later step was used.
    expect(verifyTotp(SECRET, totpCode(SECRET, T - 30_000), T, { lastStep: step })).toEqual({ ok: false, step: null });
    // The next step's code is still good.
    expect(verifyTotp(SECRET, totpCode(SECRET, T + 30_000), T, { lastStep: step })).toEqual({ ok: true, step: step + 1 });
    // null (never used) behaves like no lastStep.
    expect(verifyTotp(SECRET, code, T, { lastStep: null })).toEqual({ ok: true, step });
  });

  it("ignores spaces in the code", () => {
    const code = totpCode(SECRET, T);
    expect(verifyTotp(SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, T).ok).toBe(true);
    expect(verifyTotp(SECRET, ` ${code} `, T).ok).toBe(true);
  });

  it.each(["", "12345", "1234567", "12345a", "abcdef", "１２３４５６", "+12345", "-12345", "12.345", "0x1234"])("refuses %j", (code) => {
    expect(verifyTotp(SECRET, code, T)).toEqual({ ok: false, step: null });
  });

  it("refuses each wrong code that differs in one digit", () => {
    const code = totpCode(SECRET, T);
    const near = new Set([-1, 0, 1].map((o) => totpCode(SECRET, T + o * 30_000)));
    for (let i = 0; i < 6; i++) {
      const d = (Number(code[i]) + 1) % 10;
      const wrong = code.slice(0, i) + d + code.slice(i + 1);
      if (!near.has(wrong)) expect(verifyTotp(SECRET, wrong, T).ok).toBe(false);
    }
  });

  it("never throws on a bad secret or input, it just fails", () => {
    expect(verifyTotp("!!!", "123456", T)).toEqual({ ok: false, step: null });
    expect(verifyTotp("", "123456", T)).toEqual({ ok: false, step: null });
    expect(verifyTotp(SECRET, 123456 as unknown as string, T)).toEqual({ ok: false, step: null });
    expect(verifyTotp(SECRET, "123456", Number.NaN)).toEqual({ ok: false, step: null });
  });

  it("near the epoch, negative steps are skipped", () => {
    expect(verifyTotp(SECRET, totpCode(SECRET, 0), 0, { window: 2 })).toEqual({ ok: true, step: 0 });
  });
});

describe("secrets and URIs", () => {
  it("generates 160-bit base32 secrets, different each time", () => {
    const a = generateTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(generateTotpSecret()).not.toBe(a);
    expect(generateTotpSecret(10)).toMatch(/^[A-Z2-7]{16}$/);
    expect(() => generateTotpSecret(4)).toThrow(RangeError);
  });

  it("round-trips: a fresh secret verifies its own code", () => {
    for (let i = 0; i < 50; i++) {
      const secret = generateTotpSecret();
      const t = T + i * 7_919_000;
      expect(verifyTotp(secret, totpCode(secret, t), t)).toEqual({ ok: true, step: totpStep(t) });
    }
  });

  it("builds the otpauth key URI", () => {
    expect(otpauthUri({ secret: SECRET, account: "alice@example.com", issuer: "Infra Control" })).toBe(
      "otpauth://totp/Infra%20Control:alice%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ" +
        "&issuer=Infra%20Control&algorithm=SHA1&digits=6&period=30",
    );
  });

  it("escapes colons, ampersands and the like, and normalises the secret", () => {
    const uri = otpauthUri({ secret: "gezd gnbv==", account: "a&b:c", issuer: "X?Y" });
    expect(uri).toBe("otpauth://totp/X%3FY:a%26b%3Ac?secret=GEZDGNBV&issuer=X%3FY&algorithm=SHA1&digits=6&period=30");
  });
});
