import { describe, expect, it } from "vitest";
import { timingSafeEqual, timingSafeEqualString } from "../../../shared/auth/constant-time.ts";

const bytes = (...b: number[]) => new Uint8Array(b);

describe("timingSafeEqual", () => {
  it("is true for equal bytes, including empty ones", () => {
    expect(timingSafeEqual(bytes(1, 2, 3), bytes(1, 2, 3))).toBe(true);
    expect(timingSafeEqual(bytes(), bytes())).toBe(true);
  });

  it("is false when any one byte differs, wherever it is", () => {
    const base = crypto.getRandomValues(new Uint8Array(32));
    for (let i = 0; i < base.length; i++) {
      for (const flip of [1, 0x80, 0xff]) {
        const other = base.slice();
        other[i]! ^= flip;
        expect(timingSafeEqual(base, other)).toBe(false);
      }
    }
  });

  it("is false for different lengths, also when one is a prefix of the other or zero-padded", () => {
    expect(timingSafeEqual(bytes(1, 2), bytes(1, 2, 3))).toBe(false);
    expect(timingSafeEqual(bytes(1, 2, 3), bytes(1, 2))).toBe(false);
    expect(timingSafeEqual(bytes(1, 2), bytes(1, 2, 0))).toBe(false);
    expect(timingSafeEqual(bytes(), bytes(0))).toBe(false);
    expect(timingSafeEqual(bytes(0), bytes())).toBe(false);
  });

  it("compares views by their own bytes, not their buffers", () => {
    const buf = new Uint8Array([9, 1, 2, 3, 9]);
    expect(timingSafeEqual(buf.subarray(1, 4), bytes(1, 2, 3))).toBe(true);
  });
});

describe("timingSafeEqualString", () => {
  it.each([
    ["abc", "abc", true],
    ["", "", true],
    ["abc", "abd", false],
    ["abc", "ab", false],
    ["ab", "abc", false],
    ["abc", "ABC", false],
    ["é", "e\u0301", false],
    ["ünïcode", "ünïcode", true],
  ])("%j vs %j -> %s", (a, b, expected) => {
    expect(timingSafeEqualString(a, b)).toBe(expected);
  });
});
