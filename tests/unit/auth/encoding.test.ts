import { describe, expect, it } from "vitest";
import {
  base32ToBytes,
  base64ToBytes,
  base64UrlToBytes,
  bytesToBase32,
  bytesToBase64,
  bytesToBase64Url,
  bytesToHex,
  hexToBytes,
  utf8Bytes,
} from "../../../shared/auth/encoding.ts";

const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

// RFC 4648 section 10.
const RFC4648: [string, string, string, string][] = [
  ["", "", "", ""],
  ["f", "Zg==", "MY", "66"],
  ["fo", "Zm8=", "MZXQ", "666f"],
  ["foo", "Zm9v", "MZXW6", "666f6f"],
  ["foob", "Zm9vYg==", "MZXW6YQ", "666f6f62"],
  ["fooba", "Zm9vYmE=", "MZXW6YTB", "666f6f6261"],
  ["foobar", "Zm9vYmFy", "MZXW6YTBOI", "666f6f626172"],
];

describe("RFC 4648 vectors", () => {
  it.each(RFC4648)("%j", (plain, b64, b32, hex) => {
    const bytes = utf8Bytes(plain);
    expect(bytesToBase64(bytes)).toBe(b64);
    expect(bytesToBase64Url(bytes)).toBe(b64.replace(/=+$/, ""));
    expect(bytesToBase32(bytes)).toBe(b32);
    expect(bytesToHex(bytes)).toBe(hex);
    expect(text(base64ToBytes(b64))).toBe(plain);
    expect(text(base64UrlToBytes(b64.replace(/=+$/, "")))).toBe(plain);
    expect(text(base32ToBytes(b32))).toBe(plain);
    expect(text(hexToBytes(hex))).toBe(plain);
  });

  it("the TOTP test secret in base32", () => {
    expect(bytesToBase32(utf8Bytes("12345678901234567890"))).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });
});

describe("base64 and base64url alphabets", () => {
  it("use +/ and -_ respectively", () => {
    const b = new Uint8Array([0xfb, 0xff, 0xfe]);
    expect(bytesToBase64(b)).toBe("+//+");
    expect(bytesToBase64Url(b)).toBe("-__-");
    expect(base64ToBytes("-__-")).toBeNull();
    expect(base64UrlToBytes("+//+")).toBeNull();
  });
});

describe("decoders refuse what is not a canonical encoding", () => {
  it.each(["0", "abc", "zz", "0g", " 00", "00 ", "é0"])("hex %j", (s) => expect(hexToBytes(s)).toBeNull());

  it("hex accepts either case and writes lower case", () => {
    expect(bytesToHex(hexToBytes("DEADbeef")!)).toBe("deadbeef");
  });

  it.each([
    "Zg", // missing padding
    "Zg=", // short padding
    "Zg===",
    "Zm9v=",
    "Zh==", // non-zero leftover bits
    "Zm9=",
    "Z===",
    "Zm 9v",
    "Zm9v\n",
    "Zm9v!A==",
  ])("base64 %j", (s) => expect(base64ToBytes(s)).toBeNull());

  it.each(["Zg==", "Zh", "Z", "Zm9v_!", "Zm9 v"])("base64url %j", (s) => expect(base64UrlToBytes(s)).toBeNull());

  it.each(["M", "MZX", "MZXW6Y", "MZ1", "MZ8", "MZ!Q"])("base32 %j", (s) => expect(base32ToBytes(s)).toBeNull());

  it("base32 is lenient for people: any case, spaces, padding", () => {
    expect(text(base32ToBytes("mzxw 6ytb oi"))).toBe("foobar");
    expect(text(base32ToBytes("MZXW6YQ="))).toBe("foob");
    expect(text(base32ToBytes(" mzxw6yq\t"))).toBe("foob");
  });
});

describe("round trips", () => {
  it("random bytes of every length up to 70, 20 times each", () => {
    for (let n = 0; n <= 70; n++) {
      for (let k = 0; k < 20; k++) {
        const b = crypto.getRandomValues(new Uint8Array(n));
        expect(hexToBytes(bytesToHex(b))).toEqual(b);
        expect(base64ToBytes(bytesToBase64(b))).toEqual(b);
        expect(base64UrlToBytes(bytesToBase64Url(b))).toEqual(b);
        expect(base32ToBytes(bytesToBase32(b))).toEqual(b);
        expect(base32ToBytes(bytesToBase32(b).toLowerCase())).toEqual(b);
      }
    }
  });

  it("base64 matches the platform's btoa", () => {
    for (let k = 0; k < 200; k++) {
      const b = crypto.getRandomValues(new Uint8Array(k % 50));
      expect(bytesToBase64(b)).toBe(btoa(String.fromCharCode(...b)));
    }
  });
});
