import { describe, expect, it } from "vitest";
import {
  BACKUP_CODE_ALPHABET,
  BACKUP_CODE_BITS,
  generateBackupCodes,
  hashBackupCode,
  normalizeBackupCode,
  verifyBackupCode,
} from "../../../shared/auth/backup-codes.ts";

// Computed with Python: sha256(bytes.fromhex("00112233445566778899aabbccddeeff") + b"abcdefghjkmn").
const KNOWN = "sha256$00112233445566778899aabbccddeeff$043033256d3c45b617fb4dd56031a7abba71fc90b0ffb48242a4687459c9512e";

describe("generateBackupCodes", () => {
  it("gives ten abcd-efgh-jkmn codes by default, all different", () => {
    const codes = generateBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[23456789a-hjkmnp-z]{4}-[23456789a-hjkmnp-z]{4}-[23456789a-hjkmnp-z]{4}$/);
  });

  it("uses no characters that read like others, and carries at least 50 bits", () => {
    expect(BACKUP_CODE_ALPHABET).not.toMatch(/[01oli]/);
    expect(new Set(BACKUP_CODE_ALPHABET).size).toBe(BACKUP_CODE_ALPHABET.length);
    expect(BACKUP_CODE_BITS).toBeGreaterThanOrEqual(50);
  });

  it("uses every alphabet character, roughly evenly", () => {
    const counts = new Map<string, number>();
    for (const code of generateBackupCodes(100)) for (const ch of code.replace(/-/g, "")) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(BACKUP_CODE_ALPHABET.length);
    // 1200 draws over 31 characters: about 39 each; far outside 10..80 would mean a broken sampler.
    for (const n of counts.values()) expect(n).toBeGreaterThan(10);
    for (const n of counts.values()) expect(n).toBeLessThan(80);
  });

  it("refuses silly counts", () => {
    expect(() => generateBackupCodes(0)).toThrow(RangeError);
    expect(() => generateBackupCodes(1.5)).toThrow(RangeError);
    expect(generateBackupCodes(1)).toHaveLength(1);
  });
});

describe("hash and verify", () => {
  it("matches an independently computed salted SHA-256", () => {
    expect(verifyBackupCode("abcd-efgh-jkmn", KNOWN)).toBe(true);
    expect(verifyBackupCode("abcd-efgh-jkmp", KNOWN)).toBe(false);
  });

  it("writes sha256$<salt_hex>$<hash_hex> with a fresh salt", () => {
    const a = hashBackupCode("abcd-efgh-jkmn");
    expect(a).toMatch(/^sha256\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(hashBackupCode("abcd-efgh-jkmn")).not.toBe(a);
  });

  it("normalises case, spaces and dashes on both sides", () => {
    expect(normalizeBackupCode(" ABCD-efgh jkmn ")).toBe("abcdefghjkmn");
    const stored = hashBackupCode("ABCD EFGH JKMN");
    for (const typed of ["abcd-efgh-jkmn", "abcdefghjkmn", "ABCD-EFGH-JKMN", " abcd efgh-jkmn\t", "ab-cd-ef-gh-jk-mn"]) {
      expect(verifyBackupCode(typed, stored)).toBe(true);
    }
  });

  it("round-trips 200 generated codes, and refuses each with one character changed", () => {
    const codes = generateBackupCodes(100).concat(generateBackupCodes(100));
    codes.forEach((code, n) => {
      const stored = hashBackupCode(code);
      expect(verifyBackupCode(code, stored)).toBe(true);
      const i = [0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13][n % 12]!;
      const swapped = code[i] === "a" ? "b" : "a";
      expect(verifyBackupCode(code.slice(0, i) + swapped + code.slice(i + 1), stored)).toBe(false);
    });
  });

  it("fails when any one character of the stored value changes", () => {
    for (let i = 0; i < KNOWN.length; i++) {
      const c = KNOWN[i]!;
      const replacement = c === "$" ? ":" : c === "f" ? "0" : (parseInt(c, 36) + 1).toString(36);
      const tampered = KNOWN.slice(0, i) + replacement + KNOWN.slice(i + 1);
      expect(verifyBackupCode("abcd-efgh-jkmn", tampered), tampered).toBe(false);
    }
  });

  it.each([
    null,
    undefined,
    "",
    "sha256$$",
    "sha256$00112233445566778899aabbccddeeff",
    "md5$00112233445566778899aabbccddeeff$043033256d3c45b617fb4dd56031a7abba71fc90b0ffb48242a4687459c9512e",
    "sha256$00112233445566778899aabbccddeeff$043033256d3c45b617fb4dd56031a7ab",
    "sha256$0011223$043033256d3c45b617fb4dd56031a7abba71fc90b0ffb48242a4687459c9512e",
    "sha256$$043033256d3c45b617fb4dd56031a7abba71fc90b0ffb48242a4687459c9512e",
    `${KNOWN}$`,
  ])("stored %j is false", (stored) => {
    expect(verifyBackupCode("abcd-efgh-jkmn", stored)).toBe(false);
  });

  it("an empty code never verifies and cannot be hashed", () => {
    expect(verifyBackupCode("", KNOWN)).toBe(false);
    expect(verifyBackupCode(" - ", KNOWN)).toBe(false);
    expect(() => hashBackupCode("--")).toThrow(TypeError);
  });
});
