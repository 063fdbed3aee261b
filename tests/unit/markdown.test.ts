// Documents render Markdown to HTML that is safe to put in a page: GFM works, raw HTML is escaped and
// dangerous URL protocols never reach an href or src.
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../shared/verbs/docs/render-markdown.ts";

describe("renderMarkdown", () => {
  it("renders CommonMark and GFM: headings, emphasis, tables, task lists, strikethrough, autolinks", () => {
    expect(renderMarkdown("# Title\n\n*a* **b** ~~c~~")).toBe("<h1>Title</h1>\n<p><em>a</em> <strong>b</strong> <del>c</del></p>");
    const table = renderMarkdown("| a | b |\n|---|:-:|\n| 1 | 2 |");
    expect(table).toContain("<table>");
    expect(table).toContain('<td align="center">2</td>');
    expect(renderMarkdown("- [x] done\n- [ ] todo")).toBe(
      '<ul>\n<li><input type="checkbox" disabled="" checked="" /> done</li>\n<li><input type="checkbox" disabled="" /> todo</li>\n</ul>',
    );
    expect(renderMarkdown("see www.example.com")).toBe('<p>see <a href="http://www.example.com">www.example.com</a></p>');
    expect(renderMarkdown("[ok](https://example.com/a?b=1&c=2) ![pic](/uploads/doc-image/x.png)")).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2">ok</a> <img src="/uploads/doc-image/x.png" alt="pic" /></p>',
    );
  });

  it("escapes raw HTML, inline and in blocks, instead of passing it through", () => {
    expect(renderMarkdown("<script>alert(1)</script>")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(renderMarkdown('hi <img src=x onerror="alert(1)"> there')).toBe(
      "<p>hi &lt;img src=x onerror=&quot;alert(1)&quot;&gt; there</p>",
    );
    expect(renderMarkdown("<iframe src='https://evil.example'></iframe>")).not.toContain("<iframe");
    expect(renderMarkdown('<a href="javascript:alert(1)">x</a>')).not.toContain("<a ");
    expect(renderMarkdown("```\n<b>code</b>\n```")).toBe("<pre><code>&lt;b&gt;code&lt;/b&gt;\n</code></pre>");
  });

  it("neutralises javascript:, vbscript: and data: URLs in links, images, references and autolinks", () => {
    const hostile = [
      "[a](javascript:alert(1))",
      "[b](JAVASCRIPT:alert(1))",
      "[c](java&#x09;script:alert(1))",
      "[d](vbscript:msgbox(1))",
      "[e](data:text/html;base64,PHNjcmlwdD4=)",
      "![f](javascript:alert(1))",
      "[g][r]\n\n[r]: javascript:alert(1)",
      "<javascript:alert(1)>",
      '[h](https://ok.example "title\\" onclick=\\"x")',
    ];
    for (const md of hostile) {
      const html = renderMarkdown(md);
      expect(html, md).not.toMatch(/(href|src)="(?!https:\/\/ok\.example)[^"]+"/);
      // Attribute values are quoted and escaped; outside them no event handler may appear.
      expect(html.replace(/"[^"]*"/g, '""'), md).not.toMatch(/<[^>]*\son\w+=/i);
    }
  });

  it("escapes attribute-breaking characters in URLs and titles", () => {
    const html = renderMarkdown('[x](https://example.com/"onmouseover="alert(1) "t\\"itle")');
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/onmouseover=/);
  });
});
