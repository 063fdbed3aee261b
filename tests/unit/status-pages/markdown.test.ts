// The incident Markdown policy (shared/domain/markdown.ts, docs/adr/0456): what an operator
// writes becomes harmless HTML on the public page, whatever they (or someone with their token) type.
import { describe, expect, it } from "vitest";
import { renderSafeMarkdown as render } from "../../../shared/domain/markdown.ts";

describe("incident Markdown", () => {
  it("renders the usual Markdown", () => {
    expect(render("**Storage** is _slow_; see `df -h`.")).toBe("<p><strong>Storage</strong> is <em>slow</em>; see <code>df -h</code>.</p>");
    expect(render("- one\n- two")).toBe("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
    expect(render("# Update")).toBe("<h3>Update</h3>");
  });

  it("keeps http(s) and mailto links with rel=noopener nofollow", () => {
    expect(render("[status](https://example.com/x?a=1&b=2)")).toBe(
      '<p><a href="https://example.com/x?a=1&amp;b=2" rel="noopener nofollow">status</a></p>',
    );
    expect(render("<https://example.com>")).toContain('rel="noopener nofollow"');
    expect(render("[mail](mailto:ops@example.com)")).toContain('href="mailto:ops@example.com"');
    expect(render('[x](https://a.example "t")')).not.toContain("title");
  });

  it("shows raw HTML as text: no script, no event handler, no style", () => {
    for (const hostile of [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      '<a href="https://ok.example" onclick="alert(1)">x</a>',
      '<p style="background:url(javascript:alert(1))">x</p>',
      "<iframe src=https://evil.example></iframe>",
      '<svg onload="alert(1)"></svg>',
    ]) {
      const out = render(hostile);
      expect(out, hostile).not.toMatch(/<(script|img|iframe|svg|style)\b/i);
      // Inside a tag: the same text escaped as words is harmless.
      expect(out, hostile).not.toMatch(/<[a-z][^>]*\s(on\w+|style)=/i);
    }
    expect(render("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
  });

  it("refuses javascript:, vbscript: and data: links and every image", () => {
    for (const hostile of [
      "[x](javascript:alert(1))",
      "[x](JaVaScRiPt:alert(1))",
      "[x](java\tscript:alert(1))",
      "[x](vbscript:msgbox(1))",
      "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
      "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
      "![x](https://tracker.example/pixel.png)",
      "[x](//evil.example/)",
    ]) {
      const out = render(hostile);
      expect(out, hostile).not.toMatch(/href="(?!https?:|mailto:)/i);
      expect(out, hostile).not.toMatch(/<img/i);
      expect(out, hostile).not.toMatch(/href="[^"]*(script|data):/i);
    }
  });

  it("escapes what could break out of an attribute", () => {
    const out = render('[x](https://a.example/"onmouseover="alert(1))');
    expect(out).not.toMatch(/"\s*onmouseover=/);
  });
});
