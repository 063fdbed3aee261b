// GET /status/{slug} and GET / on a custom domain (docs/adr/0454-status-pages.md): server-rendered HTML
// without script, every stored text escaped, a strict CSP, the draft 404, ETag/304, and the console
// left alone on any other host.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const EVIL = `<script>alert("x")</script>`;
beforeAll(async () => {
  a = await createActors();
  const m = await a.req("POST", "monitors", a.admin, { name: "web", check_type: "http", host: "web.internal.lan" });
  const monitorId = (await m.json()).id;
  await a.t.sql`update monitors set status = 'up', last_msg = ${`<img src=x onerror=alert(1)>`} where id = ${monitorId}`;
  const res = await a.req("POST", "status-pages", a.admin, {
    slug: "home",
    title: `Home ${EVIL}`,
    description: `"quoted" & <b>bold</b>`,
    footer_text: `Call <a href="javascript:x">us</a>`,
    logo_url: "https://cdn.example.net/logo.png",
    published: true,
    custom_domain: "status.example.com",
    sections: [
      { name: `Web ${EVIL}`, show_messages: true, items: [{ kind: "monitor", monitor_id: monitorId, public_name: `Site ${EVIL}` }] },
    ],
  });
  expect(res.status).toBe(201);
  expect((await a.req("POST", "status-pages", a.admin, { slug: "hidden", title: "Hidden draft" })).status).toBe(201);
});
afterAll(async () => a?.t.close());

const get = (url: string, headers: Record<string, string> = {}) => a.t.app.request(url, { headers });

describe("public status page", () => {
  it("renders HTML with every stored text escaped, only the live script and a strict CSP", async () => {
    const res = await get("/status/home");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[\w+/=]+'/);
    expect(csp).toContain("img-src https://cdn.example.net");
    expect(csp).not.toContain("unsafe-inline");
    // The one script: the live updates', by its hash, which the tag repeats as its integrity.
    const scriptHash = /script-src '(sha256-[\w+/=]+)'(;|$)/.exec(csp)?.[1];
    expect(scriptHash).toBeDefined();
    expect(csp).toContain("connect-src 'self'");
    const html = await res.text();
    const scripts = html.match(/<script[^>]*>/gi) ?? [];
    expect(scripts).toEqual([
      expect.stringMatching(
        new RegExp(`^<script src="/status/assets/live\\.js\\?v=[\\w%-]+" integrity="${scriptHash!.replace(/[+/]/g, "\\$&")}" defer>$`),
      ),
    ]);
    expect(html).toContain(`<main data-events="/status/home/events">`);
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>bold</b>");
    expect(html).not.toContain(`<a href="javascript`);
    expect(html).toContain("Home &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("All systems operational");
    expect(html).not.toContain("web.internal.lan");
    // 90 daily and 24 hourly segments.
    expect(html.match(/<span class="[^"]*" title=/g)).toHaveLength(114);
  });

  it("answers 304 on If-None-Match", async () => {
    const first = await get("/status/home");
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    expect((await get("/status/home", { "if-none-match": etag })).status).toBe(304);
  });

  it("answers a draft and an unknown slug with the same 404 page", async () => {
    const draft = await get("/status/hidden");
    const unknown = await get("/status/nope");
    expect(draft.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await draft.text()).toBe(await unknown.text());
  });

  it("serves the page at / for its custom domain only", async () => {
    const res = await get("/", { host: "Status.Example.com:443" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Home &lt;script&gt;");
    const other = await get("/", { host: "console.example.org" });
    expect(await other.text()).not.toContain("Home &lt;script&gt;");
  });
});
