// The wording the chat notifiers share (shared/domain/notifications/message-text.ts).
import { describe, expect, it } from "vitest";
import { basicAuth } from "../../../shared/domain/notifications/basic-auth.ts";
import { byteLength, clipBytes, colorOf, escapeHtml, levelLine, markOf } from "../../../shared/domain/notifications/message-text.ts";

describe("message text", () => {
  it("clips to a byte limit without splitting a character, and only when over it", () => {
    expect(clipBytes("abc", 3)).toBe("abc");
    expect(clipBytes("abcd", 3)).toBe("…");
    const s = "🚨".repeat(10); // 40 bytes
    for (let limit = 3; limit <= 41; limit++) {
      const out = clipBytes(s, limit);
      expect(byteLength(out)).toBeLessThanOrEqual(limit);
      expect(out).not.toContain("\uFFFD");
      if (limit >= 40) expect(out).toBe(s);
      else expect(out.endsWith("…")).toBe(true);
    }
    expect(byteLength("é€🚨x")).toBe(2 + 3 + 4 + 1);
  });

  it("marks the severity, and a recovery as over whatever its severity", () => {
    expect(markOf({ status: "firing", severity: "critical" })).toBe("🔴");
    expect(markOf({ status: "event", severity: "warning" })).toBe("🟠");
    expect(markOf({ status: "firing", severity: "info" })).toBe("🔵");
    expect(markOf({ status: "resolved", severity: "critical" })).toBe("✅");
    expect(colorOf({ status: "resolved", severity: "critical" })).toBe("#36a64f");
    expect(colorOf({ status: "firing", severity: "warning" })).toBe("#FFA500");
    expect(levelLine({ status: "firing", severity: "critical" })).toBe("Critical · firing");
  });

  it("escapes HTML and encodes Basic credentials as UTF-8 base64", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(basicAuth("bot@example.org", "key")).toBe(`Basic ${Buffer.from("bot@example.org:key").toString("base64")}`);
    expect(basicAuth("ü", "é")).toBe(`Basic ${Buffer.from("ü:é", "utf8").toString("base64")}`);
  });
});
