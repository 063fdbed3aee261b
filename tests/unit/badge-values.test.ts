// The badges' words and colours (shields.io's steps) and their size from the Verdana 11px widths (docs/adr/0455).
import { describe, expect, it } from "vitest";
import { badgeWidth, renderBadge } from "../../functions/badges/render.ts";
import {
  BADGE_COLORS as C,
  certExpiryValue,
  formatPct,
  responseTimeValue,
  statusValue,
  uptimeColor,
  uptimeValue,
} from "../../shared/domain/badges/badge-values.ts";

describe("badge values", () => {
  it("colours uptime by shields' steps, at each boundary", () => {
    const steps: [number, string][] = [
      [100, C.brightgreen],
      [99.9, C.brightgreen],
      [99.89, C.green],
      [99, C.green],
      [98.99, C.yellowgreen],
      [97, C.yellowgreen],
      [96.99, C.yellow],
      [95, C.yellow],
      [94.99, C.orange],
      [90, C.orange],
      [89.99, C.red],
      [0, C.red],
    ];
    expect(steps.map(([p]) => uptimeColor(p))).toEqual(steps.map(([, c]) => c));
    expect([C.brightgreen, C.green, C.yellowgreen, C.yellow, C.orange, C.red, C.lightgrey]).toEqual([
      "#4c1",
      "#97ca00",
      "#a4a61d",
      "#dfb317",
      "#fe7d37",
      "#e05d44",
      "#9f9f9f",
    ]);
  });

  it("writes percentages cut to 2 decimals, never rounding up to 100%", () => {
    expect([formatPct(100), formatPct(99.999), formatPct(99.5), formatPct(91.256), formatPct(0)]).toEqual([
      "100%",
      "99.99%",
      "99.5%",
      "91.25%",
      "0%",
    ]);
    expect(uptimeValue(0, 0)).toEqual({ message: "no data", color: C.lightgrey });
    expect(uptimeValue(999, 1000)).toEqual({ message: "99.9%", color: C.brightgreen });
  });

  it("names each state, paused first", () => {
    expect(statusValue("up", true)).toEqual({ message: "up", color: C.brightgreen });
    expect(statusValue("down", true)).toEqual({ message: "down", color: C.red });
    expect(statusValue("degraded", true)).toEqual({ message: "degraded", color: C.yellow });
    expect(statusValue("pending", true)).toEqual({ message: "pending", color: C.lightgrey });
    expect(statusValue("down", false)).toEqual({ message: "paused", color: C.lightgrey });
  });

  it("colours response times and certificate days", () => {
    expect([199, 200, 499, 999, 1999, 2000].map((ms) => responseTimeValue(ms).color)).toEqual([
      C.brightgreen,
      C.green,
      C.green,
      C.yellow,
      C.orange,
      C.red,
    ]);
    expect(responseTimeValue(123.6).message).toBe("124 ms");
    expect(responseTimeValue(null).message).toBe("no data");
    expect([31, 30, 15, 14, 8, 7, 0].map((d) => certExpiryValue(d).color)).toEqual([
      C.brightgreen,
      C.yellow,
      C.yellow,
      C.orange,
      C.orange,
      C.red,
      C.red,
    ]);
    expect([certExpiryValue(1).message, certExpiryValue(45).message, certExpiryValue(-3).message]).toEqual(["1 day", "45 days", "expired"]);
  });
});

describe("badge rendering", () => {
  const draw = (label: string, message: string) => renderBadge({ label, message, color: C.brightgreen, style: "flat" });

  it("sizes each half to its text from Verdana 11px widths (wide letters take more room than narrow ones)", () => {
    expect(badgeWidth(draw("status", "up"))).toBeLessThan(badgeWidth(draw("status", "maintenance")));
    expect(badgeWidth(draw("iiii", "up"))).toBeLessThan(badgeWidth(draw("WWWW", "up")));
    // shields' own numbers for "build | passing" at 11px Verdana.
    expect(badgeWidth(draw("build", "passing"))).toBe(88);
  });

  it("escapes every text and labels the image for assistive technology", () => {
    const svg = draw('<a href="x">', "up & <b>");
    expect(svg).not.toMatch(/<a |<b>/);
    expect(svg).toContain("&lt;a href=&quot;x&quot;&gt;");
    expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*aria-label="&lt;a href=&quot;x&quot;&gt;: up &amp; &lt;b&gt;"/);
    expect(svg).toContain("<title>&lt;a href=&quot;x&quot;&gt;: up &amp; &lt;b&gt;</title>");
  });
});
