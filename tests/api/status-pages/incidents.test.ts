// /status-pages/{page_id}/incidents* (docs/adr/0456-status-page-incidents.md): create (a draft unless
// published), list, read, PATCH/DELETE under If-Match, the timeline (status changes, resolved), publish,
// 422s naming the field, 404s, 409s, scopes, audit; and the public side: a draft is never shown, a
// published incident is on the summary and the HTML page with its Markdown sanitised, a resolved one
// only in the history (HTML and JSON twin).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let pageId: number;
let otherPageId: number;
let monitorId: number;
let serviceId: number;
beforeAll(async () => {
  a = await createActors();
  const m = await a.req("POST", "monitors", a.admin, { name: "nas-internal", check_type: "icmp", host: "10.0.0.9" });
  monitorId = (await m.json()).id;
  const s = await a.req("POST", "services", a.admin, { name: "photos-backend-internal" });
  serviceId = (await s.json()).id;
  const page = await a.req("POST", "status-pages", a.admin, {
    slug: "home",
    title: "Home",
    published: true,
    sections: [
      {
        name: "All",
        items: [
          { kind: "monitor", monitor_id: monitorId, public_name: "Storage" },
          { kind: "service", service_id: serviceId, public_name: "Photos" },
        ],
      },
    ],
  });
  expect(page.status).toBe(201);
  pageId = (await page.json()).id;
  otherPageId = (await (await a.req("POST", "status-pages", a.admin, { slug: "other", title: "Other", published: true })).json()).id;
});
afterAll(async () => a?.t.close());

const P = () => `status-pages/${pageId}/incidents`;
const locs = async (res: Response) => ((await res.json()).detail as { loc: (string | number)[] }[]).map((d) => d.loc.join("."));
const summary = async () => (await a.req("GET", "status-pages/home/summary")).json();
const HOSTILE = `**Disk** failed. <script>alert(1)</script> <img src=x onerror=alert(2)> [more](javascript:alert(3)) [ok](https://example.com/x)`;

describe("status page incidents (admin API)", () => {
  it("creates a draft that the public never sees, then publishes it", async () => {
    const res = await a.req("POST", P(), a.admin, {
      title: "Storage is slow",
      impact: "major",
      body: HOSTILE,
      affected: [{ kind: "monitor", monitor_id: monitorId }],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toMatch(/^W\/"\d+"$/);
    const draft = await res.json();
    expect(draft).toMatchObject({
      page_id: pageId,
      title: "Storage is slow",
      status: "investigating",
      impact: "major",
      source: "operator",
      published: false,
      published_at: null,
      resolved_at: null,
      affected: [{ kind: "monitor", monitor_id: monitorId, service_id: null, tag: null, public_name: "Storage" }],
    });
    expect(draft.updates).toHaveLength(1);
    expect(draft.updates[0].body).toBe(HOSTILE);
    // Raw HTML and the javascript: link stay text; nothing becomes markup.
    expect(draft.updates[0].html).not.toMatch(/<script|<img|href="javascript:/);
    expect(draft.key).toMatch(/^[\w-]{12}$/);

    expect((await summary()).incidents).toEqual([]);
    expect(await (await a.t.app.request("/status/home")).text()).not.toContain("Storage is slow");
    expect((await (await a.req("GET", "status-pages/home/history")).json()).items).toEqual([]);

    const pub = await a.req("POST", `${P()}/${draft.id}/publish`, a.admin);
    expect(pub.status).toBe(200);
    expect(await pub.json()).toMatchObject({ published: true, published_at: expect.any(String) });
    expect((await a.req("POST", `${P()}/${draft.id}/publish`, a.admin)).status).toBe(409);

    const s = await summary();
    expect(s.incidents).toHaveLength(1);
    const [shown] = s.incidents;
    expect(shown).toMatchObject({
      key: draft.key,
      title: "Storage is slow",
      status: "investigating",
      impact: "major",
      affected: ["Storage"],
    });
    expect(shown).not.toHaveProperty("id");
    expect(shown.updates[0].html).toContain("<strong>Disk</strong>");
    expect(shown.updates[0].html).toContain('<a href="https://example.com/x" rel="noopener nofollow">ok</a>');
    const text = JSON.stringify(s);
    for (const leak of ["<script", "<img", 'href=\\"javascript', "nas-internal", "10.0.0.9"]) expect(text, leak).not.toContain(leak);

    const html = await (await a.t.app.request("/status/home")).text();
    expect(html).toContain("Current incidents");
    expect(html).toContain("Storage is slow");
    expect(html).toContain("<strong>Disk</strong>");
    // The page's own live script is allowed (docs/adr/0459); the timeline's hostile markup is not.
    expect(html).not.toMatch(/<script>alert|<img src=x/);
    expect(html).toContain('href="/status/home/history"');
    expect(html).toMatch(/<link rel="alternate" type="application\/atom\+xml"[^>]+href="\/status\/home\/feed\.atom"/);
  });

  it("adds timeline entries; resolved sets resolved_at and moves it to the history", async () => {
    const created = await a.req("POST", P(), a.admin, { title: "Photos down", body: "Looking.", publish: true });
    expect(created.status).toBe(201);
    const etag = created.headers.get("etag")!;
    const inc = await created.json();
    expect(inc.published).toBe(true);

    const identified = await a.req(
      "POST",
      `${P()}/${inc.id}/updates`,
      a.admin,
      { status: "identified", body: "A full disk." },
      { "if-match": etag },
    );
    expect(identified.status).toBe(201);
    expect((await identified.json()).status).toBe("identified");
    // The old ETag is stale now.
    const stale = await a.req("POST", `${P()}/${inc.id}/updates`, a.admin, { body: "again" }, { "if-match": etag });
    expect(stale.status).toBe(412);

    const note = await (await a.req("POST", `${P()}/${inc.id}/updates`, a.admin, { body: "Still on it." })).json();
    expect(note.status).toBe("identified");
    expect(note.updates.map((u: { status: string }) => u.status)).toEqual(["investigating", "identified", "identified"]);

    const resolved = await (await a.req("POST", `${P()}/${inc.id}/updates`, a.admin, { status: "resolved", body: "Fixed." })).json();
    expect(resolved.resolved_at).toEqual(expect.any(String));
    const reopen = await a.req("POST", `${P()}/${inc.id}/updates`, a.admin, { status: "monitoring", body: "back?" });
    expect(reopen.status).toBe(409);
    expect((await a.req("POST", `${P()}/${inc.id}/updates`, a.admin, { body: "Post-mortem: disks." })).status).toBe(201);

    expect((await summary()).incidents.map((i: { title: string }) => i.title)).not.toContain("Photos down");
    const history = await (await a.req("GET", "status-pages/home/history")).json();
    expect(history).toMatchObject({ total: 2, limit: 20, offset: 0, sort: "started_at", direction: "desc" });
    expect(history.items[0]).toMatchObject({ title: "Photos down", status: "resolved", resolved_at: expect.any(String) });
    expect(history.items[0].updates[0].html).toBe("<p>Post-mortem: disks.</p>");
    const page = await a.t.app.request("/status/home/history");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain("Photos down");
    expect(html).not.toContain("<script");
  });

  it("lists with the envelope and filters, changes under If-Match and deletes", async () => {
    const list = await (await a.req("GET", `${P()}?state=resolved`, a.viewer)).json();
    expect(list).toMatchObject({ total: 1, limit: 25, offset: 0 });
    expect((await (await a.req("GET", P(), a.viewer)).json()).total).toBe(2);
    const inc = (await (await a.req("GET", `${P()}?q=storage`, a.viewer)).json()).items[0];
    const one = await a.req("GET", `${P()}/${inc.id}`, a.viewer);
    const etag = one.headers.get("etag")!;
    const patched = await a.req(
      "PATCH",
      `${P()}/${inc.id}`,
      a.admin,
      { title: "Storage slow", affected: [{ kind: "service", service_id: serviceId }] },
      { "if-match": etag },
    );
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ title: "Storage slow", affected: [{ kind: "service", public_name: "Photos" }] });
    expect((await a.req("PATCH", `${P()}/${inc.id}`, a.admin, { title: "x" }, { "if-match": etag })).status).toBe(412);
    expect((await a.req("DELETE", `${P()}/${inc.id}`, a.admin, undefined, { "if-match": etag })).status).toBe(412);
    expect((await a.req("DELETE", `${P()}/${inc.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `${P()}/${inc.id}`, a.admin)).status).toBe(404);
    const audit = await a.t.sql<{ action: string }[]>`select action from audit_log where entity_type = 'status_page_incident' order by id`;
    expect(audit.map((r) => r.action)).toEqual([
      "status_page.incident_create",
      "status_page.incident_publish",
      "status_page.incident_create",
      "status_page.incident_add_update",
      "status_page.incident_add_update",
      "status_page.incident_add_update",
      "status_page.incident_add_update",
      "status_page.incident_update",
      "status_page.incident_delete",
    ]);
  });

  it("answers 422 naming the field, 404 for unknown pages and incidents", async () => {
    const notOnPage = await a.req("POST", P(), a.admin, { title: "x", body: "y", affected: [{ kind: "tag", tag: "nowhere" }] });
    expect(notOnPage.status).toBe(422);
    expect(await locs(notOnPage)).toEqual(["body.affected.0"]);
    const bad = await a.req("POST", P(), a.admin, { title: "", body: "y", status: "fixed", impact: "huge", extra: 1 });
    expect(bad.status).toBe(422);
    expect((await locs(bad)).sort()).toEqual(["body.extra", "body.impact", "body.status", "body.title"]);
    expect(await locs(await a.req("POST", P(), a.admin, { title: "x" }))).toEqual(["body.body"]);
    expect((await a.req("GET", "status-pages/999999/incidents", a.admin)).status).toBe(404);
    expect((await a.req("POST", "status-pages/999999/incidents", a.admin, { title: "x", body: "y" })).status).toBe(404);
    const inc = await (await a.req("POST", P(), a.admin, { title: "t", body: "b" })).json();
    // An incident is found only under its own page.
    expect((await a.req("GET", `status-pages/${otherPageId}/incidents/${inc.id}`, a.admin)).status).toBe(404);
    expect((await a.req("POST", `${P()}/999999/updates`, a.admin, { body: "b" })).status).toBe(404);
  });

  it("lets every role read and only write:status_pages change; the public history needs nothing", async () => {
    const res = await a.req("POST", P(), a.editor, { title: "x", body: "y" });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain("write:status_pages");
    expect((await a.req("GET", P(), a.viewer)).status).toBe(200);
    expect((await a.req("GET", P())).status).toBe(401);
    expect((await a.req("GET", "status-pages/home/history")).status).toBe(200);
  });

  it("keeps drafts' pages and unknown slugs the same 404 on the history, its twin and the feeds", async () => {
    expect((await a.req("POST", "status-pages", a.admin, { slug: "secret", title: "Secret draft page" })).status).toBe(201);
    for (const slug of ["secret", "nothing-here"]) {
      expect((await a.req("GET", `status-pages/${slug}/history`)).status).toBe(404);
      for (const path of ["history", "feed.atom", "feed.rss"]) expect((await a.t.app.request(`/status/${slug}/${path}`)).status).toBe(404);
    }
    expect((await a.t.app.request("/status/home/history?page=0")).status).toBe(404);
    expect((await a.t.app.request("/status/home/history?page=99")).status).toBe(404);
  });

  it("announces every public change on NOTIFY status_pages, and nothing for a draft", async () => {
    const seen: { change: string; page_id: number; incident_id: number }[] = [];
    const { unlisten } = await a.t.sql.listen("status_pages", (p) => seen.push(JSON.parse(p)));
    try {
      const draft = await (await a.req("POST", P(), a.admin, { title: "quiet", body: "draft" })).json();
      await a.req("POST", `${P()}/${draft.id}/updates`, a.admin, { body: "still a draft" });
      await a.req("PATCH", `${P()}/${draft.id}`, a.admin, { title: "quiet 2" });
      await a.req("POST", `${P()}/${draft.id}/publish`, a.admin);
      await a.req("POST", `${P()}/${draft.id}/updates`, a.admin, { status: "monitoring", body: "watching" });
      await a.req("PATCH", `${P()}/${draft.id}`, a.admin, { impact: "none" });
      await a.req("POST", `${P()}/${draft.id}/updates`, a.admin, { status: "resolved", body: "done" });
      await a.req("DELETE", `${P()}/${draft.id}`, a.admin);
      for (let i = 0; i < 200 && seen.length < 5; i++) await new Promise((r) => setTimeout(r, 25));
      expect(seen.map((n) => n.change)).toEqual(["published", "updated", "edited", "resolved", "deleted"]);
      expect(seen.every((n) => n.page_id === pageId && n.incident_id === draft.id)).toBe(true);
    } finally {
      await unlisten();
    }
  });

  it("stores the page's automatic incident setting", async () => {
    const page = await (await a.req("GET", `status-pages/${pageId}`, a.admin)).json();
    expect(page.auto_incidents).toEqual({ enabled: false, publish_after_secs: null });
    const res = await a.req("PATCH", `status-pages/${pageId}`, a.admin, { auto_incidents: { enabled: true, publish_after_secs: 300 } });
    expect(res.status).toBe(200);
    expect((await res.json()).auto_incidents).toEqual({ enabled: true, publish_after_secs: 300 });
    const bad = await a.req("PATCH", `status-pages/${pageId}`, a.admin, { auto_incidents: { enabled: true, publish_after_secs: -1 } });
    expect(await locs(bad)).toEqual(["body.auto_incidents.publish_after_secs"]);
  });
});
