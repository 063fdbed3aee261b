import { describe, expect, it } from "vitest";
import { generateApiToken, hashApiToken, INVITE_TOKEN_WORD, parseApiToken, verifyApiToken } from "../../../shared/auth/api-token.ts";
import type { Random } from "../../../shared/clock.ts";

// Computed with Python: hmac.new(bytes.fromhex(salt), token.encode(), sha256).hexdigest().
const TOKEN = "svc_abcdefgh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const KNOWN = "00112233445566778899aabbccddeeff:5dc26dd3f2671f23f7cc21b5b2d8e1937633262acbb9e24e1061079d85b07091";

const zeros: Random = { bytes: (n) => new Uint8Array(n), uuid: () => "" };

describe("generateApiToken", () => {
  it("gives svc_<8 lower-case base32>_<43 base64url> and returns the prefix", () => {
    const { token, prefix } = generateApiToken();
    expect(token).toMatch(/^svc_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    expect(token.slice(4, 12)).toBe(prefix);
    expect(parseApiToken(token)).toEqual({ prefix });
  });

  it("is deterministic in its randomness only", () => {
    expect(generateApiToken("svc", zeros)).toEqual({ token: `svc_aaaaaaaa_${"A".repeat(43)}`, prefix: "aaaaaaaa" });
  });

  it("serves invites with another word", () => {
    const { token, prefix } = generateApiToken(INVITE_TOKEN_WORD);
    expect(token).toMatch(/^inv_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiToken(token, "inv")).toEqual({ prefix });
    expect(parseApiToken(token)).toBeNull();
    expect(parseApiToken(generateApiToken().token, "inv")).toBeNull();
    expect(verifyApiToken(token, hashApiToken(token))).toBe(true);
  });

  it.each(["", "SVC", "s_v", "1svc", "svc-x", "a".repeat(17)])("refuses the word %j", (word) => {
    expect(() => generateApiToken(word)).toThrow(TypeError);
    expect(() => parseApiToken("x", word)).toThrow(TypeError);
  });

  it("200 tokens: distinct, parseable, verifiable", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { token, prefix } = generateApiToken();
      seen.add(token);
      expect(parseApiToken(token)).toEqual({ prefix });
      const stored = hashApiToken(token);
      expect(verifyApiToken(token, stored)).toBe(true);
      const j = 4 + (i % (token.length - 4));
      const tampered = token.slice(0, j) + (token[j] === "a" ? "b" : "a") + token.slice(j + 1);
      expect(verifyApiToken(tampered, stored)).toBe(false);
    }
    expect(seen.size).toBe(200);
  });
});

describe("parseApiToken", () => {
  it("reads the prefix of a known token", () => {
    expect(parseApiToken(TOKEN)).toEqual({ prefix: "abcdefgh" });
  });

  it.each([
    ["a JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"],
    ["empty", ""],
    ["no word", "abcdefgh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["upper-case word", TOKEN.replace("svc", "SVC")],
    ["upper-case prefix", TOKEN.replace("abcdefgh", "ABCDEFGH")],
    ["prefix with 1 (not base32)", TOKEN.replace("abcdefgh", "abcdefg1")],
    ["short prefix", TOKEN.replace("abcdefgh", "abcdefg")],
    ["long prefix", TOKEN.replace("abcdefgh", "abcdefghi")],
    ["short secret", TOKEN.slice(0, -1)],
    ["long secret", `${TOKEN}A`],
    ["secret with a bad character", `${TOKEN.slice(0, -2)}+A`],
    ["non-canonical secret end", `${TOKEN.slice(0, -1)}B`],
    ["missing separator", TOKEN.replace("abcdefgh_", "abcdefghA")],
    ["surrounding space", ` ${TOKEN}`],
    ["trailing newline", `${TOKEN}\n`],
    ["Bearer prefix", `Bearer ${TOKEN}`],
  ])("%s is not a token", (_what, value) => {
    expect(parseApiToken(value)).toBeNull();
  });

  it("a secret may itself contain _ and -", () => {
    const token = `svc_abcdefgh_${"_-".repeat(21)}A`;
    expect(parseApiToken(token)).toEqual({ prefix: "abcdefgh" });
  });

  it("a non-string is null", () => {
    expect(parseApiToken(undefined as unknown as string)).toBeNull();
  });
});

describe("hashApiToken / verifyApiToken", () => {
  it("writes {salt_hex}:{hmac_hex} with a fresh 16-byte salt each time", () => {
    const a = hashApiToken(TOKEN);
    expect(a).toMatch(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(hashApiToken(TOKEN)).not.toBe(a);
  });

  it("matches an independently computed HMAC-SHA256", () => {
    expect(verifyApiToken(TOKEN, KNOWN)).toBe(true);
    expect(verifyApiToken(TOKEN.replace("svc", "inv"), KNOWN)).toBe(false);
  });

  it("accepts upper-case hex in the stored value", () => {
    expect(verifyApiToken(TOKEN, KNOWN.toUpperCase())).toBe(true);
  });

  it("fails when any one character of the token or of the stored value changes", () => {
    for (let i = 0; i < TOKEN.length; i++) {
      const tampered = TOKEN.slice(0, i) + (TOKEN[i] === "A" ? "B" : "A") + TOKEN.slice(i + 1);
      expect(verifyApiToken(tampered, KNOWN)).toBe(false);
    }
    for (let i = 0; i < KNOWN.length; i++) {
      const c = KNOWN[i]!;
      const replacement = c === ":" ? "$" : c === "f" ? "0" : (parseInt(c, 16) + 1).toString(16);
      expect(verifyApiToken(TOKEN, KNOWN.slice(0, i) + replacement + KNOWN.slice(i + 1))).toBe(false);
    }
  });

  it.each([
    null,
    undefined,
    "",
    ":",
    KNOWN.replace(":", ""),
    KNOWN.replace(":", "$"),
    `${KNOWN}:00`,
    `:${KNOWN.split(":")[1]}`,
    `0011223344556677:${KNOWN.split(":")[1]}`,
    `00112233445566778899aabbccddeef:${KNOWN.split(":")[1]}`,
    `00112233445566778899aabbccddeeXX:${KNOWN.split(":")[1]}`,
    `${KNOWN.split(":")[0]}:${KNOWN.split(":")[1]!.slice(0, 62)}`,
    `${KNOWN} `,
  ])("stored %j is false", (stored) => {
    expect(verifyApiToken(TOKEN, stored)).toBe(false);
  });
});
