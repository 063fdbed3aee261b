import { describe, expect, it } from "vitest";
import { CpeParseError, normaliseName, parseCpe23 } from "../../../shared/domain/cve/cpe.ts";
import { compareAsset, compareLoose, compareVersions, inRange, versionScheme } from "../../../shared/domain/cve/version.ts";

describe("CPE 2.3 formatted strings", () => {
  it("parses the eleven fields with ANY and NA kept as * and -", () => {
    const c = parseCpe23("cpe:2.3:a:openbsd:openssh:9.3:p1:*:*:*:*:*:*");
    expect(c).toMatchObject({ part: "a", vendor: "openbsd", product: "openssh", version: "9.3", update: "p1", edition: "*", other: "*" });
    expect(parseCpe23("cpe:2.3:h:mikrotik:rb4011igs\\+rm:-:*:*:*:*:*:*:*")).toMatchObject({
      part: "h",
      product: "rb4011igs+rm",
      version: "-",
    });
  });

  it("unquotes escaped colons, dots and others inside a value", () => {
    const c = parseCpe23("cpe:2.3:a:acme:web\\:server:1\\.0\\.2:*:*:*:*:node\\.js:*:*");
    expect(c.product).toBe("web:server");
    expect(c.version).toBe("1.0.2");
    expect(c.target_sw).toBe("node.js");
  });

  it("refuses what is not a CPE 2.3 formatted string", () => {
    expect(() => parseCpe23("cpe:/a:openbsd:openssh:9.3")).toThrow(CpeParseError);
    expect(() => parseCpe23("cpe:2.3:a:openbsd:openssh:9.3")).toThrow(/11 fields/);
    expect(() => parseCpe23("cpe:2.3:x:a:b:c:d:e:f:g:h:i:j")).toThrow(/part/);
    expect(() => parseCpe23("cpe:2.3:a:a::c:d:e:f:g:h:i:j")).toThrow(/empty/);
    expect(() => parseCpe23("cpe:2.3:a:a:b:c:d:e:f:g:h:i:j\\")).toThrow(/backslash/);
  });

  it("normalises names the way NVD writes them", () => {
    expect(normaliseName("  Apache  HTTP Server ")).toBe("apache_http_server");
    expect(normaliseName("TP-Link")).toBe("tp-link");
  });
});

describe("version comparison", () => {
  it("orders dotted numeric versions, missing parts as zeros", () => {
    expect(compareVersions("1.2.10", "1.2.9")).toBe(1);
    expect(compareVersions("1.2", "1.2.0")).toBe(0);
    expect(compareVersions("2.4.57", "2.4.58")).toBe(-1);
    expect(compareVersions("10.0", "9.99")).toBe(1);
  });

  it("answers null (unknown) for other schemes rather than guessing", () => {
    for (const v of ["1.2.3a", "2.0-rc1", "9.3p1", "7.0beta", "", "1..2"]) {
      expect(versionScheme(v)).toBeNull();
      expect(compareVersions(v, "1.0")).toBeNull();
    }
    expect(versionScheme("7.13.2")).toBe("dotted_numeric");
  });

  it("checks including and excluding bounds", () => {
    const r = { start_including: "2.0", end_excluding: "2.15.0" };
    expect(inRange("2.0", r)).toBe(true);
    expect(inRange("2.14.1", r)).toBe(true);
    expect(inRange("2.15.0", r)).toBe(false);
    expect(inRange("1.9", r)).toBe(false);
    expect(inRange("2.0", { start_excluding: "2.0" })).toBe(false);
    expect(inRange("2.0.1", { start_excluding: "2.0" })).toBe(true);
    expect(inRange("1.1.1", { end_including: "1.1.1" })).toBe(true);
  });

  it("orders versions of another scheme only outside their window (P to the next sibling of P)", () => {
    expect(compareLoose("3.0.5", "1.0.2zd")).toBe(1);
    expect(compareLoose("1.0.1", "1.0.2zd")).toBe(-1);
    expect(compareLoose("1.0.2", "1.0.2zd")).toBeNull();
    expect(compareLoose("9.6", "9.3p2")).toBe(1);
    expect(compareLoose("7.0.1", "7.1-42661")).toBe(-1);
    expect(compareLoose("7.1.1", "7.1-42661")).toBeNull();
    expect(compareLoose("1.9.9", "2.0-rc1")).toBe(-1);
    expect(compareLoose("2.0", "2.0-rc1")).toBeNull();
    expect(compareLoose("1.0", "h5.0.1")).toBeNull();
    expect(inRange("7.0.1", { end_excluding: "7.1-42661" })).toBe(true);
    // Both sides of another scheme, or the suffixed one first.
    expect(compareLoose("1.1.1k", "3.0.0")).toBe(-1);
    expect(compareLoose("1.1.1k", "1.1.1")).toBeNull();
    expect(compareLoose("1.1.1k", "1.1.1n")).toBeNull();
    expect(compareLoose("1.1.1k", "1.1.1K")).toBe(0);
    expect(compareLoose("1.1.1k", "1.0.2zd")).toBe(1);
    expect(compareLoose("2.0-rc1", "2.0")).toBeNull();
    expect(compareLoose("2.0-rc1", "1.9")).toBe(1);
    expect(inRange("3.0.5", { start_including: "1.0.2", end_excluding: "1.0.2zd" })).toBe(false);
  });

  it("never orders an asset version of another scheme, only the same text", () => {
    expect(compareAsset("1.1.1k", "3.0.0")).toBeNull();
    expect(compareAsset("1.2.3a", "2.0")).toBeNull();
    expect(compareAsset("9.3P1", "9.3p1")).toBe(0);
    expect(compareAsset("3.0.5", "1.0.1a")).toBe(1);
    expect(inRange("2.0-rc1", { start_including: "1.0", end_excluding: "3.0" })).toBeNull();
  });

  it("is unknown when a bound is unorderable, but false when another bound already excludes", () => {
    expect(inRange("9.3", { end_excluding: "9.3p2" })).toBeNull();
    expect(inRange("1.0", { start_including: "2.0", end_excluding: "9.3p2" })).toBe(false);
    expect(inRange("2.0-rc1", { start_including: "1.0" })).toBeNull();
  });
});
