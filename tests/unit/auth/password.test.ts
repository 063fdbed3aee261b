import { describe, expect, it } from "vitest";
import { DEFAULT_PASSWORD_ITERATIONS, hashPassword, validatePasswordPolicy, verifyPassword } from "../../../shared/auth/password.ts";

const fast = { iterations: 1000 };
// Computed independently with Python: hashlib.pbkdf2_hmac(alg, pw.encode(), bytes(range(16)), 1000, len).
const SALT = "AAECAwQFBgcICQoLDA0ODw==";
const KNOWN = `pbkdf2_sha256$1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`;
const KNOWN_PW = "correct horse battery staple";
const UNICODE = `pbkdf2_sha256$1000$${SALT}$wjFpClfpxAlwtYFNByrLnxN2dsbWSIRg+A4HAGJCbOI=`;
const LEGACY_SHA512 = `pbkdf2_sha512$1000$${SALT}$wBF3pQFuzqMEWi/MCfup6dYsv0kDNToi2yxWJV3bV1egIi6KXydaMm6NfUQnUoSbwRC3WlNTWP+GTgHUAOFHkw==`;
const LEGACY_SHA1 = `pbkdf2_sha1$1000$${SALT}$2nv1NKMdryzMi18Zz08pNLiak7I=`;

describe("hashPassword", () => {
  it("writes pbkdf2_sha256$<iterations>$<salt_b64>$<hash_b64> with a 16-byte salt and a 32-byte key", async () => {
    const stored = await hashPassword("a long enough password", fast);
    expect(stored).toMatch(/^pbkdf2_sha256\$1000\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
  });

  it("salts: the same password hashes differently each time", async () => {
    const a = await hashPassword("same password here", fast);
    const b = await hashPassword("same password here", fast);
    expect(a).not.toBe(b);
  });

  it("uses 600,000 iterations by default, and verifies at that count", async () => {
    expect(DEFAULT_PASSWORD_ITERATIONS).toBe(600_000);
    const stored = await hashPassword("the default cost");
    expect(stored.split("$")[1]).toBe("600000");
    expect(await verifyPassword("the default cost", stored)).toEqual({ ok: true, needsRehash: false });
  });

  it.each([0, -1, 1.5, Number.NaN, 20_000_000])("refuses iterations %s", async (iterations) => {
    await expect(hashPassword("x", { iterations })).rejects.toThrow(RangeError);
  });
});

describe("verifyPassword", () => {
  it("matches an independently computed PBKDF2-SHA256 hash", async () => {
    expect(await verifyPassword(KNOWN_PW, KNOWN, fast)).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword("correct horse battery stapl", KNOWN, fast)).toEqual({ ok: false, needsRehash: false });
  });

  it("normalises to NFKC, so composed and decomposed accents are the same password", async () => {
    expect((await verifyPassword("pässwörd ünïcode", UNICODE, fast)).ok).toBe(true);
    expect((await verifyPassword("pa\u0308sswo\u0308rd u\u0308ni\u0308code", UNICODE, fast)).ok).toBe(true);
  });

  it("round-trips 200 random passwords, and refuses each with one character changed", async () => {
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !$%&/()=?äöü€😀";
    const chars = [...alphabet];
    for (let n = 0; n < 200; n++) {
      const length = 1 + (crypto.getRandomValues(new Uint8Array(1))[0]! % 40);
      const pw = Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => chars[b % chars.length]!);
      const password = pw.join("");
      const stored = await hashPassword(password, { iterations: 10 });
      expect(await verifyPassword(password, stored, { iterations: 10 })).toEqual({ ok: true, needsRehash: false });
      const i = n % pw.length;
      const tampered = [...pw];
      tampered[i] = tampered[i] === "a" ? "b" : "a";
      expect((await verifyPassword(tampered.join(""), stored, { iterations: 10 })).ok).toBe(false);
    }
  });

  it("asks for a rehash when the stored count is below the current one", async () => {
    const stored = await hashPassword("an older password", { iterations: 500 });
    expect(await verifyPassword("an older password", stored, { iterations: 1000 })).toEqual({ ok: true, needsRehash: true });
    expect(await verifyPassword("an older password", stored, { iterations: 500 })).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword("an older password", stored, { iterations: 400 })).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword("wrong", stored, { iterations: 1000 })).toEqual({ ok: false, needsRehash: false });
  });

  it("verifies older PBKDF2 digests and asks for a rehash", async () => {
    expect(await verifyPassword("legacy password!", LEGACY_SHA512, fast)).toEqual({ ok: true, needsRehash: true });
    expect(await verifyPassword("legacy password!", LEGACY_SHA1, fast)).toEqual({ ok: true, needsRehash: true });
    expect((await verifyPassword("legacy password?", LEGACY_SHA1, fast)).ok).toBe(false);
  });

  it("fails when any one character of the stored hash changes", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (let i = 0; i < KNOWN.length; i++) {
      const c = KNOWN[i]!;
      const replacement = c === "A" ? "B" : c === "1" ? "2" : c === "$" ? "%" : c === "=" ? "A" : alphabet[(alphabet.indexOf(c) + 1) % 64]!;
      const tampered = KNOWN.slice(0, i) + replacement + KNOWN.slice(i + 1);
      expect((await verifyPassword(KNOWN_PW, tampered, fast)).ok, tampered).toBe(false);
    }
  });

  it.each([
    null,
    undefined,
    "",
    "not a hash",
    "pbkdf2_sha256$1000$salt",
    `pbkdf2_sha256$1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=$extra`,
    `bcrypt$1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `PBKDF2_SHA256$1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `constructor$1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$0$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$01000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$-1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$1e3$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$99999999$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$1000$$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$1000$c2FsdA==$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=`,
    `pbkdf2_sha256$1000$${SALT}$`,
    `pbkdf2_sha256$1000$${SALT}$AAAA`,
    `pbkdf2_sha256$1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4`,
    `pbkdf2_sha256$1000$${SALT}$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4=\n`,
  ])("stored %j is ok:false and does not throw", async (stored) => {
    expect(await verifyPassword(KNOWN_PW, stored, fast)).toEqual({ ok: false, needsRehash: false });
  });

  it("a non-string password is ok:false, not an exception", async () => {
    expect(await verifyPassword(undefined as unknown as string, KNOWN, fast)).toEqual({ ok: false, needsRehash: false });
  });
});

describe("validatePasswordPolicy", () => {
  it("accepts 12 to 256 characters", () => {
    expect(validatePasswordPolicy("a".repeat(12))).toEqual([]);
    expect(validatePasswordPolicy("a".repeat(256))).toEqual([]);
  });

  it("counts characters, not UTF-16 units or bytes", () => {
    expect(validatePasswordPolicy("😀".repeat(12))).toEqual([]);
    expect(validatePasswordPolicy("😀".repeat(11)).map((p) => p.code)).toEqual(["too_short"]);
    expect(validatePasswordPolicy("ü".repeat(256))).toEqual([]);
  });

  it.each([
    ["", ["too_short"]],
    ["a".repeat(11), ["too_short"]],
    ["a".repeat(257), ["too_long"]],
  ])("%j -> %j", (pw, codes) => {
    const problems = validatePasswordPolicy(pw);
    expect(problems.map((p) => p.code)).toEqual(codes);
    for (const p of problems) expect(p.message).toMatch(/\d+ characters/);
  });

  it("refuses the e-mail address itself, whatever the case", () => {
    expect(validatePasswordPolicy("Alice@Example.com", "alice@example.com").map((p) => p.code)).toEqual(["same_as_email"]);
    expect(validatePasswordPolicy("alice@example.com", " ALICE@example.com ").map((p) => p.code)).toEqual(["same_as_email"]);
    expect(validatePasswordPolicy("a@b.co", "a@b.co").map((p) => p.code)).toEqual(["too_short", "same_as_email"]);
    expect(validatePasswordPolicy("alice@example.com!", "alice@example.com")).toEqual([]);
    expect(validatePasswordPolicy("alice@example.com", null)).toEqual([]);
  });
});
