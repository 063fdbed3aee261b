// GET /status/{slug}/feed.atom and feed.rss (docs/adr/0457-status-page-history-and-feeds.md): parsed as
// XML, one entry per published incident with its timeline as sanitised HTML, no draft, hostile text
// (CDATA terminators, markup) kept inert, absolute links, the page's caching, and the history page's
// pagination.
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const HOSTILE_TITLE = "Disk ]]> <b>full</b> & more";
beforeAll(async () => {
  a = await createActors();
  const page = await (await a.req("POST", "status-pages", a.admin, { slug: "feedy", title: "Feedy & Co", published: true })).json();
  const P = `status-pages/${page.id}/incidents`;
  const first = await (await a.req("POST", P, a.admin, { title: "Old outage", body: "It broke.", publish: true })).json();
  expect((await a.req("POST", `${P}/${first.id}/updates`, a.admin, { status: "resolved", body: "**Fixed**." })).status).toBe(201);
  const second = await a.req("POST", P, a.admin, {
    title: HOSTILE_TITLE,
    body: "Look ]]><script>alert(1)</script> [x](javascript:alert(1)) [ok](https://example.com)",
    publish: true,
  });
  expect(second.status).toBe(201);
  expect((await a.req("POST", P, a.admin, { title: "Secret draft incident", body: "not yet" })).status).toBe(201);
  for (let i = 0; i < 21; i++) expect((await a.req("POST", P, a.admin, { title: `Blip ${i}`, body: "b", publish: true })).status).toBe(201);
});
afterAll(async () => a?.t.close());

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" });
const get = (path: string, headers: Record<string, string> = {}) => a.t.app.request(`http://status.example.org${path}`, { headers });
/** A CDATA or plain text node's text. */
const text = (node: unknown): string =>
  typeof node === "object" && node !== null ? String((node as { "#text": unknown })["#text"]) : String(node);

describe("status page feeds", () => {
  it("serves Atom with one entry per published incident, newest first, and no draft", async () => {
    const res = await get("/status/feedy/feed.atom");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/atom\+xml/);
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    const body = await res.text();
    expect(body).not.toContain("Secret draft incident");
    const feed = parser.parse(body).feed;
    expect(text(feed.title)).toBe("Feedy & Co: incidents");
    expect(feed.id).toBe("http://status.example.org/status/feedy/history");
    const entries = feed.entry as Record<string, unknown>[];
    expect(entries).toHaveLength(23);
    const titles = entries.map((e) => text(e.title));
    expect(titles.at(-1)).toBe("Old outage (Resolved)");
    const hostile = entries.find((e) => text(e.title).startsWith("Disk"))!;
    // The CDATA terminator in the text did not end the section early: the title reads back whole.
    expect(text(hostile.title)).toBe(`${HOSTILE_TITLE} (Investigating)`);
    const content = text(hostile.content);
    expect(content).toContain('<a href="https://example.com" rel="noopener nofollow">ok</a>');
    expect(content).not.toMatch(/<script|href="javascript:/);
    expect(String(hostile.id)).toMatch(/^http:\/\/status\.example\.org\/status\/feedy\/history#incident-[\w-]{12}$/);
    const old = entries.at(-1)!;
    expect(text(old.content)).toContain("<strong>Fixed</strong>");
  });

  it("serves RSS 2.0 with the same items and answers 304 to its ETag", async () => {
    const res = await get("/status/feedy/feed.rss");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
    const channel = parser.parse(await res.text()).rss.channel;
    expect(channel.item).toHaveLength(23);
    expect(channel.item.map((i: Record<string, unknown>) => text(i.title))).toContain("Old outage (Resolved)");
    const again = await get("/status/feedy/feed.rss", { "if-none-match": res.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("is announced by the page and the history page, which pages 20 incidents at a time", async () => {
    const page = await (await get("/status/feedy")).text();
    expect(page).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Feedy &amp; Co: incidents" href="/status/feedy/feed.rss">',
    );
    const first = await (await get("/status/feedy/history")).text();
    expect(first).toContain('href="/status/feedy/feed.atom"');
    expect(first.match(/<article /g)).toHaveLength(20);
    expect(first).toContain('href="/status/feedy/history?page=2"');
    expect(first).not.toContain("Secret draft incident");
    const second = await (await get("/status/feedy/history?page=2")).text();
    expect(second.match(/<article /g)).toHaveLength(3);
    expect(second).toContain("Old outage");
    expect(second).toContain('href="/status/feedy/history">Newer incidents');
    expect(second).toContain("Disk ]]&gt; &lt;b&gt;full&lt;/b&gt; &amp; more");
  });
});
